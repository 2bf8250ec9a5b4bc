import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { BenchCase } from '../case';
import { startServerProcess } from '../http/server-process';
import { THROUGHPUT_SIZES, compareThroughput } from '../http/throughput';
import { throughputFigure } from '../http/throughput-figure';
import { sized } from '../run-options';

/**
 * prompts/get over stateless HTTP (protocol 2026-07-28: createMcpHandler, a server per request),
 * 16 SDK 2.x clients pinned to 2026-07-28: the workflow against a static prompt from the same handler.
 */
export const httpV2: BenchCase = {
  name: 'http-v2',
  async run(options) {
    const server = await startServerProcess(path.join(__dirname, '..', 'fixtures', 'http-server-v2.js'));
    try {
      const clients = await Promise.all(
        Array.from({ length: 16 }, async () => {
          const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
          await client.connect(new StreamableHTTPClientTransport(server.url));
          return client;
        }),
      );
      const result = await compareThroughput(
        server,
        clients,
        sized(options, THROUGHPUT_SIZES, { warmupMs: 100, rounds: 1, durationMs: 100 }),
      );
      await Promise.all(clients.map((client) => client.close()));
      return {
        result,
        figures: [throughputFigure('6. stateless HTTP 2026-07-28, SDK 2.x, server per request, 16 concurrent clients', result)],
      };
    } finally {
      server.stop();
    }
  },
};
