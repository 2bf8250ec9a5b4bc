import { stats, type Stats } from '../measure';
import type { ServerProcess } from './server-process';

/** What the HTTP benchmarks need of a client, on either SDK line. */
export interface HttpPromptClient {
  getPrompt(request: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
}

export interface ThroughputComparison {
  /** Requests per second (wall clock) of the workflow and of the static prompt, one sample a round. */
  workflow: Stats;
  static: Stats;
  /** workflow ÷ static requests per second within each round. */
  paired: Stats;
  /** The server's CPU time per request, in µs. */
  workflowCpuUs: Stats;
  staticCpuUs: Stats;
  /** static ÷ workflow CPU time per request within each round: requests per server CPU-second, workflow ÷ static. */
  cpuPaired: Stats;
}

/** Each client calls prompts/get of `prompt` again and again for `durationMs`: requests per second, and how many. */
export async function promptLoop(
  clients: HttpPromptClient[],
  prompt: string,
  durationMs: number,
): Promise<{ perSecond: number; requests: number }> {
  let requests = 0;
  const deadline = Date.now() + durationMs;
  const start = process.hrtime.bigint();
  await Promise.all(
    clients.map(async (client) => {
      while (Date.now() < deadline) {
        await client.getPrompt({ name: prompt, arguments: { input: 'hello' } });
        requests += 1;
      }
    }),
  );
  return { perSecond: requests / (Number(process.hrtime.bigint() - start) / 1e9), requests };
}

/** How long each side is warmed up, how many rounds, and how long each side loops a round. */
export interface ThroughputSizes {
  warmupMs: number;
  rounds: number;
  durationMs: number;
}

/** A real run: 1 s of warm-up each, then 6 alternating rounds of 1.5 s. */
export const THROUGHPUT_SIZES: ThroughputSizes = { warmupMs: 1000, rounds: 6, durationMs: 1500 };

/**
 * prompts/get of the workflow ('chain') against a static prompt ('static') served by the same
 * handler, every client looping for `durationMs` per round, alternating which goes first. Also
 * reads the server process's CPU time around each round: on a shared machine, requests per server
 * CPU-second move far less than requests per second.
 */
export async function compareThroughput(
  server: ServerProcess,
  clients: HttpPromptClient[],
  { warmupMs, rounds, durationMs }: ThroughputSizes,
): Promise<ThroughputComparison> {
  const first = (await clients[0].getPrompt({ name: 'chain', arguments: { input: 'hello' } })) as { _meta?: Record<string, unknown> };
  const status = (first._meta?.['mcpflow/execution'] as { status?: string } | undefined)?.status;
  if (status !== 'completed') throw new Error(`the workflow served over HTTP did not complete (status ${status}): nothing to measure`);
  await promptLoop(clients, 'chain', warmupMs);
  await promptLoop(clients, 'static', warmupMs);
  const samples = { chain: [] as number[], static: [] as number[] };
  const cpu = { chain: [] as number[], static: [] as number[] };
  for (let round = 0; round < rounds; round += 1) {
    for (const prompt of round % 2 ? (['static', 'chain'] as const) : (['chain', 'static'] as const)) {
      const before = await server.cpuMs();
      const { perSecond, requests } = await promptLoop(clients, prompt, durationMs);
      samples[prompt].push(perSecond);
      cpu[prompt].push((((await server.cpuMs()) - before) * 1000) / requests);
    }
  }
  return {
    workflow: stats(samples.chain),
    static: stats(samples.static),
    paired: stats(samples.chain.map((value, round) => value / samples.static[round])),
    workflowCpuUs: stats(cpu.chain),
    staticCpuUs: stats(cpu.static),
    cpuPaired: stats(cpu.static.map((value, round) => value / cpu.chain[round])),
  };
}
