import { fork } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { BenchCase } from '../case';
import { stats } from '../measure';
import { ratioFigure } from '../report';

/** Requests per second of `prompt` at `concurrency` clients, each looping for `durationMs`. */
async function throughput(clients: Client[], prompt: string, durationMs: number): Promise<number> {
  let done = 0;
  const deadline = Date.now() + durationMs;
  const start = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < deadline) {
        await client.getPrompt({ name: prompt, arguments: { input: 'hello' } });
        done += 1;
      }
    }),
  );
  return done / (Number(process.hrtime.bigint() - start) / 1e9);
}

/** prompts/get throughput over Streamable HTTP (SDK 1.x, sessions) on 127.0.0.1 at concurrency 16: the workflow against a static prompt on the same server. */
export const httpV1: BenchCase = {
  name: 'http-v1',
  async run() {
    const concurrency = 16;
    const rounds = 6;
    const durationMs = 1500;
    const server = fork(path.join(__dirname, '..', 'fixtures', 'http-server-v1.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const port = await new Promise<number>((resolve) => server.once('message', (message) => resolve((message as { port: number }).port)));
    try {
      const url = new URL(`http://127.0.0.1:${port}/mcp`);
      const clients = await Promise.all(
        Array.from({ length: concurrency }, async () => {
          const client = new Client({ name: 'bench', version: '1.0.0' });
          await client.connect(new StreamableHTTPClientTransport(url));
          return client;
        }),
      );
      await throughput(clients, 'chain', 1000);
      await throughput(clients, 'static', 1000);
      const workflow: number[] = [];
      const fixed: number[] = [];
      for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 ? ['static', 'chain'] : ['chain', 'static'];
        for (const prompt of order) (prompt === 'chain' ? workflow : fixed).push(await throughput(clients, prompt, durationMs));
      }
      await Promise.all(clients.map((client) => client.close()));
      const result = { workflow: stats(workflow), static: stats(fixed), ratio: 0 };
      result.ratio = result.workflow.median / result.static.median;
      return {
        result,
        figures: [
          {
            benchmark: '6. Streamable HTTP, SDK 1.x sessions, 16 concurrent clients',
            figure: ratioFigure('workflow', result.workflow, 'static prompt', result.static, 'req/s', 0),
            target: 'ratio ≥ 0.8',
            met: result.ratio >= 0.8,
          },
        ],
      };
    } finally {
      server.kill();
    }
  },
};
