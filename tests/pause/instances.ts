import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from '@modelcontextprotocol/client';
import type { GetPromptResult } from '@modelcontextprotocol/server';

/**
 * Server instances in processes of their own (`instance.js`), as behind a load balancer: each
 * serves protocol 2026-07-28 over stateless HTTP and counts its own tool calls.
 *
 *   const a = await startInstance({ keys: [KEY] });
 *   const prompt = await manualClient(a.url, closers);
 *   … await a.counts() …
 *   stopInstances();
 */
export interface Instance {
  readonly url: URL;
  /** How often each tool ran in this process. */
  counts(): Promise<Record<string, number>>;
  /** The run ids the `record_run` tool saw in this process, in order. */
  runs(): Promise<string[]>;
  /** Stops the process (SIGTERM), as a rolling deploy stops an instance; resolves once it exited. */
  stop(): Promise<void>;
}

export interface InstanceOptions {
  readonly keys: readonly string[];
  readonly ttlSeconds?: number;
  /** A redis:// URL: the instance pauses with `redisReplayGuard` on a client of this library. */
  readonly redis?: { readonly url: string; readonly client: 'node-redis' | 'ioredis' };
  /** Which version of add_project_task the instance serves (see instance.js `projectTask`); `1` by default. */
  readonly version?: '1' | 'appended' | 'inserted' | 'inserted-previous';
}

const children: ChildProcess[] = [];

export async function startInstance({ keys, ttlSeconds, redis, version }: InstanceOptions): Promise<Instance> {
  const env: NodeJS.ProcessEnv = { ...process.env, MCPFLOW_TEST_KEYS: JSON.stringify(keys) };
  if (ttlSeconds) env.MCPFLOW_TEST_TTL = String(ttlSeconds);
  if (version) env.MCPFLOW_TEST_VERSION = version;
  if (redis) Object.assign(env, { MCPFLOW_TEST_REDIS: redis.url, MCPFLOW_TEST_REDIS_CLIENT: redis.client });
  const child = spawn(process.execPath, [path.join(__dirname, 'instance.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`instance exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const read = async <T>(route: string) => (await (await fetch(`${base}${route}`)).json()) as T;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url: new URL(`${base}/mcp`), counts: () => read('/counts'), runs: () => read('/runs'), stop };
}

/** Stops every instance started. */
export function stopInstances(): void {
  for (const child of children.splice(0)) child.kill('SIGTERM');
}

export type Round = GetPromptResult | InputRequiredResult;

/** A 2.x client pinned to 2026-07-28 that hands input_required back instead of answering it itself; closed by `closers`. */
export async function manualClient(url: URL, closers: (() => Promise<unknown>)[]): Promise<Client> {
  const client = new Client(
    { name: 'pause-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { form: {} } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  closers.push(() => client.close());
  return client;
}

/** `prompts/get` (or, with `method`, `tools/call` of a workflow's tool) that may end in input_required. */
export async function getPrompt(
  client: Client,
  params: Record<string, unknown>,
  method: 'prompts/get' | 'tools/call' = 'prompts/get',
): Promise<Round> {
  return (await client.request({ method, params } as never, { allowInputRequired: true } as never)) as Round;
}

/** The round as input_required, with its state; throws on anything else. */
export function paused(round: Round): InputRequiredResult & { requestState: string } {
  if ((round as InputRequiredResult).resultType !== 'input_required')
    throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
  return round as InputRequiredResult & { requestState: string };
}
