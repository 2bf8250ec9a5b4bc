import { fork } from 'node:child_process';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { stats, type Stats } from './measure';

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

/** 6. prompts/get throughput over Streamable HTTP on 127.0.0.1 at concurrency 16: the workflow against a static prompt on the same server. */
export async function httpThroughput(
  concurrency = 16,
  rounds = 6,
  durationMs = 1500,
): Promise<{ workflow: Stats; static: Stats; ratio: number }> {
  const server = fork(path.join(__dirname, 'http-server.js'), [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
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
    return result;
  } finally {
    server.kill();
  }
}
