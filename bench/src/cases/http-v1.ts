import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BenchCase } from '../case';
import { startServerProcess } from '../http/server-process';
import { THROUGHPUT_SIZES, compareThroughput } from '../http/throughput';
import { throughputFigure } from '../http/throughput-figure';
import { sized } from '../run-options';

/** prompts/get over Streamable HTTP, SDK 1.x, a session per client, 16 clients: the workflow against a static prompt on the same server. */
export const httpV1: BenchCase = {
  name: 'http-v1',
  async run(options) {
    const server = await startServerProcess(path.join(__dirname, '..', 'fixtures', 'http-server-v1.js'));
    try {
      const clients = await Promise.all(
        Array.from({ length: 16 }, async () => {
          const client = new Client({ name: 'bench', version: '1.0.0' });
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
      return { result, figures: [throughputFigure('6. Streamable HTTP, SDK 1.x sessions, 16 concurrent clients', result)] };
    } finally {
      server.stop();
    }
  },
};
