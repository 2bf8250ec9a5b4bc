import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { createClient } from 'redis';
import { REDIS_REQUIRED, redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { WorkflowServer, bullmqTasks } from '@mcpflow/core/v2';
import { resumeTask, TaskCancelledError, type ToolResult } from '@mcpflow/client';
import { connectHttp, startTask } from '../helpers/task-serving';
import { Report } from './task-workflows';

/**
 * bullmqTasks across instances (DESIGN §2.13 "Durable"): two instance processes (durable-instance.js,
 * on the built packages) share a redis-server this test starts on a free loopback port. The one
 * running a round is killed with SIGKILL in the middle of a step; the other takes the round over
 * and goes on from the last checkpoint.
 */
const KEY = 'durable-tasks-test-key-of-32-bytes!!';
const VERSION = 'v9.8.7-secret-version';

interface Instance {
  readonly child: ChildProcess;
  readonly url: URL;
  counts(): Promise<Record<string, number>>;
  runs(): Promise<string[]>;
}

const children: ChildProcess[] = [];

/** Starts `release` on `instance` through `@mcpflow/client`: its task id (the call follows on, and fails with the instance). */
async function startRelease(instance: Instance, version: string): Promise<string> {
  const client = await connectHttp(instance.url);
  const { taskId, done } = await startTask(client, { name: 'release', arguments: { version } });
  const close = () => client.close();
  void done.then(close, close);
  return taskId;
}

/** Follows the task from another instance, as a client that lost the first one would: `resumeTask` to its end. */
async function resumeOn(instance: Instance, taskId: string): Promise<ToolResult> {
  const client = await connectHttp(instance.url);
  try {
    return await resumeTask(client, taskId, { pollIntervalMs: 20 });
  } finally {
    await client.close();
  }
}

/** What the instances started with `debug` wrote on stderr (DEBUG=mcpflow lines). */
let debugOutput = '';

async function startInstance(redis: RedisServer, hang?: string, lockMs?: number, debug = false): Promise<Instance> {
  const env: NodeJS.ProcessEnv = { ...process.env, MCPFLOW_TEST_REDIS_PORT: String(redis.port), MCPFLOW_TEST_KEYS: JSON.stringify([KEY]) };
  if (hang) env.MCPFLOW_TEST_HANG = hang;
  if (lockMs) env.MCPFLOW_TEST_LOCK_MS = String(lockMs);
  if (debug) env.DEBUG = 'mcpflow';
  const child = spawn(process.execPath, [path.join(__dirname, 'durable-instance.js')], {
    env,
    stdio: ['ignore', 'pipe', debug ? 'pipe' : 'inherit'],
  });
  child.stderr?.on('data', (chunk: Buffer) => (debugOutput += chunk.toString()));
  children.push(child);
  const ports = await new Promise<{ port: number; probe: number }>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve(JSON.parse(line) as { port: number; probe: number });
    });
    child.on('exit', (code) => reject(new Error(`instance exited with ${code}`)));
  });
  const read = async <T>(route: string) => (await (await fetch(`http://127.0.0.1:${ports.probe}${route}`)).json()) as T;
  return { child, url: new URL(`http://127.0.0.1:${ports.port}/mcp`), counts: () => read('/counts'), runs: () => read('/runs') };
}

/** Waits, at most `limitMs`, until `condition` holds; a functional wait, not a timing assertion. */
async function eventually(condition: () => Promise<boolean>, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const available = redisServerInstalled();
if (!available && REDIS_REQUIRED) {
  test('redis-server is installed (CI runs the durable tasks against a real server)', () => {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it when missing)');
  });
}
const describeWithRedis = available ? describe : describe.skip;

let redis: RedisServer;
beforeAll(async () => {
  if (available) redis = await startRedisServer();
}, 60_000);
// Each test's instances go with it: a worker left running would take the next test's rounds.
afterEach(async () => {
  const exits = children.splice(0).map((child) =>
    child.exitCode !== null || child.signalCode !== null
      ? undefined
      : new Promise((resolve) => {
          child.once('exit', resolve);
          child.kill('SIGKILL');
        }),
  );
  await Promise.all(exits);
});
afterAll(async () => {
  await redis?.stop();
});

/** Every key of the test's Redis and its value (hash fields and values as JSON), as someone reading Redis sees them. */
async function redisDump(): Promise<string[]> {
  const scan = createClient({ url: redis.url });
  await scan.connect();
  const dump: string[] = [];
  for await (const keys of scan.scanIterator({ COUNT: 100 })) {
    for (const key of ([] as string[]).concat(keys)) {
      const type = await scan.type(key);
      const value =
        type === 'string'
          ? await scan.get(key)
          : type === 'hash'
            ? JSON.stringify(await scan.hGetAll(key))
            : type === 'list'
              ? JSON.stringify(await scan.lRange(key, 0, -1))
              : type === 'zset'
                ? JSON.stringify(await scan.zRange(key, 0, -1))
                : type === 'set'
                  ? JSON.stringify(await scan.sMembers(key))
                  : type === 'stream'
                    ? JSON.stringify(await scan.xRange(key, '-', '+'))
                    : '';
      dump.push(key, value ?? '');
    }
  }
  await scan.close();
  return dump;
}

describeWithRedis('bullmqTasks: two instances sharing Redis', () => {
  test('kill -9 of the instance running a round: the other takes it over from the last checkpoint, no completed step runs twice, Redis holds nothing in clear', async () => {
    const first = await startInstance(redis, 'sign');
    const taskId = await startRelease(first, VERSION);
    expect(taskId).toEqual(expect.any(String));
    // The first instance is in the middle of `sign`, its third step: build and test are checkpointed.
    await eventually(async () => (await first.counts()).sign === 1);
    const firstRun = (await first.runs())[1];
    const second = await startInstance(redis, undefined, undefined, true);
    first.child.kill('SIGKILL');

    const done = await resumeOn(second, taskId);
    expect(JSON.stringify(done)).toContain(`app-${VERSION}+build+test+sign+publish`);
    expect(await second.counts()).toEqual({ build: 0, test: 0, sign: 1, publish: 1 });
    // The step in flight ran again, with the same run id (its idempotency key).
    expect(await second.runs()).toEqual([firstRun]);
    // The log names the task by its ref (an HMAC of its id), as the round's first instance logged it.
    const ref = /mcpflow task release round: (\S{8})/.exec(debugOutput)?.[1];
    expect(debugOutput).toContain(`mcpflow task round taken over: ${ref}`);
    expect(debugOutput).not.toContain(taskId.slice(0, 8));
    expect(debugOutput).not.toContain(VERSION);

    // Redis, every key and value: no argument, no step's answer, no result in clear.
    const dump = await redisDump();
    // The task id appears only as an HMAC (DESIGN §2.13): whoever reads Redis cannot act on the task.
    expect(dump.join('\n')).not.toContain(taskId);
    expect(dump.join('\n')).not.toContain(VERSION);
    expect(dump.join('\n')).not.toContain('artifact');
  }, 120_000);

  test('a large argument echoed by every step is stored once: the checkpoints refer to it, the other instance takes over from them, and Redis holds it only sealed', async () => {
    // 22 KB, with quotes: the steps' JSON results hold it escaped.
    const version = `${VERSION} ${'long "release" notes '.repeat(1000)}`;
    const first = await startInstance(redis, 'sign');
    const taskId = await startRelease(first, version);
    await eventually(async () => (await first.counts()).sign === 1);
    // The task's hash holds its arguments (sealed, once) and the checkpoints of build and test, which echo them.
    const dump = await redisDump();
    const task = dump.findIndex((key) => key.startsWith('durable-test:task:') && !key.includes(':live'));
    const fields = Object.values(JSON.parse(dump[task + 1]) as Record<string, string>);
    expect(fields.length).toBeGreaterThan(4);
    expect(fields.reduce((sum, value) => sum + value.length, 0)).toBeLessThan(2 * version.length);
    const second = await startInstance(redis);
    first.child.kill('SIGKILL');

    const done = await resumeOn(second, taskId);
    const outputs = (done.structuredContent as { outputs: Record<string, { artifact: string }> }).outputs;
    expect(outputs.signed.artifact).toBe(`app-${version}+build+test+sign`);
    expect(await second.counts()).toEqual({ build: 0, test: 0, sign: 1, publish: 1 });
    const after = (await redisDump()).join('\n');
    expect(after).not.toContain('long "release" notes');
    expect(after).not.toContain('long \\"release\\" notes');
  }, 120_000);

  test('kill -9 in the middle of the first step: the other instance runs it again with the same run id, and the rest once', async () => {
    const first = await startInstance(redis, 'build');
    const taskId = await startRelease(first, '3.0.0');
    await eventually(async () => (await first.counts()).build === 1);
    const [firstRun] = await first.runs();
    const second = await startInstance(redis);
    first.child.kill('SIGKILL');
    expect(JSON.stringify(await resumeOn(second, taskId))).toContain('app-3.0.0+build+test+sign+publish');
    expect(await second.counts()).toEqual({ build: 1, test: 1, sign: 1, publish: 1 });
    expect(await second.runs()).toEqual([firstRun, firstRun]);
  }, 120_000);

  test("serveHttp's close() (SIGTERM) hands the round in flight to the other instance, which finishes it from the checkpoint", async () => {
    // Locks of ten minutes: the round can reach the other instance only by being handed over, not by expiring.
    const first = await startInstance(redis, 'sign', 600_000);
    const taskId = await startRelease(first, '1.0.0');
    await eventually(async () => (await first.counts()).sign === 1);
    const second = await startInstance(redis, undefined, 600_000);
    const before = await first.counts();
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));
    expect(JSON.stringify(await resumeOn(second, taskId))).toContain('app-1.0.0+build+test+sign+publish');
    expect(before).toEqual({ build: 1, test: 1, sign: 1, publish: 0 });
    expect(await second.counts()).toEqual({ build: 0, test: 0, sign: 1, publish: 1 });
  }, 120_000);

  test('tasks/cancel on one instance aborts the step running on another', async () => {
    const first = await startInstance(redis, 'sign');
    const taskId = await startRelease(first, '2.0.0');
    await eventually(async () => (await first.counts()).sign === 1);
    const second = await startInstance(redis);
    // A client of the second instance gives up on the task (its call's signal): tasks/cancel there.
    const onSecond = await connectHttp(second.url);
    const stop = new AbortController();
    const onStatus = () => stop.abort(new Error('given up'));
    await expect(resumeTask(onSecond, taskId, { signal: stop.signal, onStatus, pollIntervalMs: 20 })).rejects.toThrow('given up');
    await onSecond.close();
    await expect(resumeOn(first, taskId)).rejects.toBeInstanceOf(TaskCancelledError);
    expect((await first.counts()).publish).toBe(0);
  }, 120_000);
});

test('Redis unreachable at start: the instance fails fast with an error naming the fix', async () => {
  const child = spawn(process.execPath, [path.join(__dirname, 'durable-instance.js')], {
    env: { ...process.env, MCPFLOW_TEST_REDIS_PORT: '1', MCPFLOW_TEST_KEYS: JSON.stringify([KEY]), MCPFLOW_TEST_CONNECT_MS: '1000' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).not.toBe(0);
  expect(stderr).toContain('mcpflow bullmqTasks: Redis did not answer');
  expect(stderr).toContain('Fix: start Redis');
}, 60_000);

test('bullmqTasks without pause.keys: use() throws naming the fix, before anything reaches Redis', () => {
  const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: 1 } });
  expect(() => new WorkflowServer({ name: 'reports', version: '1.0.0' }, { tasks }).use(Report)).toThrow(
    /WorkflowServer option tasks .*bullmqTasks.*pause: \{ keys: \[/,
  );
});
