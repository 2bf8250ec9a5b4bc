import 'reflect-metadata';
import { Bind, Step, Workflow, defineTool } from '@mcpflow/decorators';
import { WorkflowServer, bullmqTasks, serveHttp, type HttpServingV2 } from '@mcpflow/core/v2';
import { REDIS_REQUIRED, redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { createClient } from 'redis';
import { randomBytes } from 'node:crypto';
import { callTool, resumeTask } from '@mcpflow/client';
import type { Client } from '@modelcontextprotocol/client';
import { RawTaskWire } from '../helpers/raw-task-wire';
import { connectHttp, POLL_MS, serveInProcess, startTask } from '../helpers/task-serving';
import { seen, taskServer } from './task-workflows';

/**
 * bullmqTasks in this process (serveHttp on 127.0.0.1) on a real redis-server the test starts and
 * stops: its maxTasks bound, shared by every instance on the prefix; and Redis going away in the
 * middle of a run and coming back.
 */
const KEY = 'bullmq-store-test-key-of-32-bytes!!!';
const pause = { keys: [KEY] };

let gate: () => void = () => undefined;
const gated = defineTool('gated', { description: 'Waits until the test opens the gate', inputSchema: {} }, async () => {
  seen.push('gated started');
  await new Promise<void>((resolve) => (gate = resolve));
  seen.push('gated done');
  return { content: [{ type: 'text' as const, text: 'through the gate' }] };
});
const closing = defineTool('closing', { description: 'Runs after the gate', inputSchema: {} }, async () => {
  seen.push('closing');
  return { content: [{ type: 'text' as const, text: 'closed' }] };
});

@Workflow({ name: 'gated_job', description: 'Waits at a gate, then closes', expose: { prompt: false, tool: { task: 'optional' } } })
class GatedJob {
  @Step({ tool: gated })
  @Bind('waited')
  waited!: unknown;

  @Step({ tool: closing })
  @Bind('closed')
  closed!: unknown;
}

const available = redisServerInstalled();
if (!available && REDIS_REQUIRED) {
  test('redis-server is installed (CI runs bullmqTasks against a real server)', () => {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it when missing)');
  });
}
const describeWithRedis = available ? describe : describe.skip;

let redis: RedisServer;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  if (available) redis = await startRedisServer();
}, 60_000);
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(async () => {
  await redis?.stop();
});
beforeEach(() => (seen.length = 0));

async function redisType(key: string): Promise<string> {
  return withRedis((connection) => connection.type(key));
}

/** The keys matching `pattern` (a task's key names its ref, an HMAC of its id, never the id). */
async function redisKeys(pattern: string): Promise<string[]> {
  return withRedis((connection) => connection.keys(pattern));
}

type RedisConnection = {
  type(key: string): Promise<string>;
  keys(pattern: string): Promise<string[]>;
  hKeys(key: string): Promise<string[]>;
  /** (node-redis types its reply wrongly: it is the field's length.) */
  hStrLen(key: string, field: string): Promise<unknown>;
  pTTL(key: string): Promise<number>;
  hSet(key: string, fields: Record<string, string | Buffer>): Promise<unknown>;
  hGet(key: string, field: string): Promise<unknown>;
  del(key: string): Promise<number>;
};

async function withRedis<T>(work: (connection: RedisConnection) => Promise<T>): Promise<T> {
  const connection = createClient({ url: redis.url });
  await connection.connect();
  try {
    return await work(connection);
  } finally {
    await connection.close();
  }
}

/** Serves `build` over HTTP on 127.0.0.1: an SDK 2.x client of it, and its raw wire (for what the wire itself answers). */
async function serve(build: () => WorkflowServer): Promise<{ client: Client; wire: RawTaskWire }> {
  const serving: HttpServingV2 = await serveHttp(build, { port: 0, onerror: () => {} });
  const client = await connectHttp(serving.url);
  closers.push(
    () => client.close(),
    () => serving.close(),
  );
  return { client, wire: RawTaskWire.overHttp(serving.url) };
}

describeWithRedis('bullmqTasks on a real redis-server', () => {
  test('maxTasks: one task more than the bound is refused with an error naming the option; the server keeps serving', async () => {
    // Every request comes from 127.0.0.1, one client: its own bound (maxTasksPerClient, principals.test.ts) is raised to the total here.
    const tasks = bullmqTasks({
      connection: { host: '127.0.0.1', port: redis.port },
      prefix: 'bounded',
      maxTasks: 2,
      maxTasksPerClient: 2,
    });
    const { client, wire } = await serve(() => taskServer(tasks, { pause }));
    const first = await startTask(client, { name: 'long_wait', arguments: {} });
    const second = await startTask(client, { name: 'long_wait', arguments: {} });
    const refused = (await callTool(client, { name: 'long_wait', arguments: {} }).catch((error: unknown) => error)) as Error;
    expect(refused).toMatchObject({ code: -32603 });
    expect(refused.message).toContain('Tool long_wait: mcpflow tasks:');
    expect(refused.message).toContain('keeps at most 2 tasks at once (bullmqTasks maxTasks)');
    expect(refused.message).toContain('raise maxTasks');
    expect((await wire.request('tasks/get', { taskId: first.taskId })).result!.status).toBe('working');
    for (const task of [first, second]) expect(await task.stop()).toEqual(new Error('stopped by the test'));
  }, 60_000);

  test('maxTaskBytes: a call whose arguments would take the task over it is refused naming the option; a smaller one runs', async () => {
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'sized', maxTaskBytes: 64 * 1024 });
    const { client } = await serve(() => taskServer(tasks, { pause }));
    const refused = (await callTool(client, { name: 'report', arguments: { project: 'x'.repeat(100 * 1024) } }).catch(
      (error: unknown) => error,
    )) as Error;
    expect(refused).toMatchObject({ code: -32603 });
    expect(refused.message).toMatch(
      /Tool report: mcpflow tasks: this task would store \d+ bytes .*over bullmqTasks maxTaskBytes \(65536\)/,
    );
    expect(refused.message).toContain('raise maxTaskBytes');
    const statuses: string[] = [];
    const small = await callTool(
      client,
      { name: 'report', arguments: { project: 'small' } },
      { pollIntervalMs: POLL_MS, onStatus: (task) => statuses.push(task.status) },
    );
    expect([statuses[0], statuses.at(-1)]).toEqual(['working', 'completed']); // between them, the status message of each step
    expect(small.structuredContent).toMatchObject({ status: 'completed' });
  }, 60_000);

  test('maxTaskBytes defaults to 16 MiB, and must be a positive integer', () => {
    expect(() => bullmqTasks({ connection: { host: '127.0.0.1', port: 1 }, maxTaskBytes: -1 })).toThrow(
      'mcpflow bullmqTasks: maxTaskBytes must be a positive integer, not -1.',
    );
  });

  test('a task is a hash whose sealed arguments are written once: each checkpoint writes its own field once, not the arguments or an earlier checkpoint again', async () => {
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'layout' });
    const { client } = await serve(() => taskServer(tasks, { pause }));
    const monitor = createClient({ url: redis.url });
    await monitor.connect();
    const written: string[] = [];
    await monitor.monitor((line) => written.push(line));
    let taskId = '';
    const report = await callTool(
      client,
      { name: 'report', arguments: { project: 'p'.repeat(20_000) } },
      { pollIntervalMs: POLL_MS, onStatus: (task) => (taskId = task.taskId) },
    );
    expect(report.structuredContent).toMatchObject({ status: 'completed' });
    await monitor.close();
    // The prefix holds this one task: its key, named by its ref.
    const taskKeys = await redisKeys('layout:task:*');
    expect(taskKeys).toHaveLength(1);
    expect(taskKeys[0]).not.toContain(taskId);
    expect(await redisType(taskKeys[0])).toBe('hash');
    // The sealed arguments go to Redis in the command that created the task (sent again only if Redis asked
    // for the script itself), in no other: not with a checkpoint, not with the task's end.
    // (Sealed values are stored as bytes: MONITOR escapes them, `\"` among them.)
    const sealedCall = written.find((line) => line.includes('layout:tasks:live'))!.match(/"call" "((?:[^"\\]|\\.)+)"/)![1];
    expect(sealedCall.length).toBeGreaterThan(20_000);
    // Stored as the bytes the sealed text encodes (a quarter smaller than the base64url text), not as that text.
    expect(sealedCall).toMatch(/\\x[0-9a-f]{2}/);
    // (MONITOR shows a script's own commands too, as `[0 lua]`: the create's HSET is one of them.)
    const carrying = written.filter((line) => line.includes(sealedCall) && !line.includes(' lua] "HSET"'));
    expect(carrying.length).toBeGreaterThan(0);
    expect(carrying.filter((line) => !line.includes('layout:tasks:live')).map((line) => line.slice(0, 300))).toEqual([]);
    const fences = written.filter((line) => line.includes(`:lock"`) && line.includes(taskKeys[0]));
    expect(fences.length).toBeGreaterThanOrEqual(3);
    // The round's end is fenced too: the script that checks the round's lock makes the task completed.
    expect(fences.filter((line) => line.includes('"completed"'))).toHaveLength(1);
    // Each checkpoint is a field of its own, written once by its fence: the run's start, then each step but the
    // last (whose checkpoint the end would drop at once: the end takes its place). None writes an earlier one again.
    const checkpointFields = written
      .filter((line) => line.includes(' lua] "HSET"'))
      .flatMap((line) => [...line.matchAll(/"(checkpoint:\d+)"/g)].map((match) => match[1]));
    expect(checkpointFields).toEqual(['checkpoint:1', 'checkpoint:2']);
  }, 60_000);

  test('arguments of 64 KiB or more go to Redis in parts of at most 256 KiB, each by a plain HSET with the TTL, never through a Lua script (which copies them slowly); the task reads them whole; a task refused by maxTasks leaves no key', async () => {
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'large', maxTasks: 1, maxTasksPerClient: 1 });
    const { client } = await serve(() => taskServer(tasks, { pause }));
    const monitor = createClient({ url: redis.url });
    await monitor.connect();
    const written: string[] = [];
    await monitor.monitor((line) => written.push(line));
    const project = 'q'.repeat(1024 * 1024);
    const report = await callTool(client, { name: 'report', arguments: { project } }, { pollIntervalMs: POLL_MS });
    expect(report.structuredContent).toMatchObject({ status: 'completed' });
    // The round read the arguments whole from their parts: the tool got the project as sent.
    expect(seen).toContain(`fetch_figures ${project}`);
    const refused = (await callTool(client, { name: 'report', arguments: { project: 'r'.repeat(100 * 1024) } }).catch(
      (error: unknown) => error,
    )) as Error;
    expect(refused.message).toContain('bullmqTasks maxTasks');
    await monitor.close();
    // Each large command is a plain HSET of one part of the arguments' key; no script (EVALSHA or EVAL) nor a
    // script's own command carried any.
    const large = written.filter((line) => line.length > 64 * 1024);
    expect(large.length).toBeGreaterThanOrEqual(5);
    for (const line of large) expect(line.slice(0, 300)).toMatch(/^\S+ \[\d+ [\d.:]+\] "hset" "large:task:[^"]+:call" "\d+" "/);
    // The task created and its arguments' key; the refused one's arguments dropped with it.
    const keys = (await redisKeys('large:task:*')).sort();
    expect(keys).toHaveLength(2);
    const [taskKey, partsKey] = keys;
    expect(partsKey).toBe(`${taskKey}:call`);
    // The arguments (1 MiB, sealed) in parts of at most 256 KiB; the task's own hash holds none of them, so
    // that its HGETALL stays small; the parts outlive the task (by a second), never the other way round.
    const parts = await withRedis((connection) => connection.hKeys(partsKey));
    expect(parts.sort((a, b) => Number(a) - Number(b))).toEqual(['1', '2', '3', '4', '5']);
    for (const part of parts)
      expect(Number(await withRedis((connection) => connection.hStrLen(partsKey, part)))).toBeLessThanOrEqual(256 * 1024);
    for (const field of await withRedis((connection) => connection.hKeys(taskKey)))
      expect(Number(await withRedis((connection) => connection.hStrLen(taskKey, field)))).toBeLessThan(64 * 1024);
    const [taskTtl, partsTtl] = await withRedis((connection) => Promise.all([connection.pTTL(taskKey), connection.pTTL(partsKey)]));
    expect(taskTtl).toBeGreaterThan(0);
    expect(partsTtl).toBeGreaterThan(taskTtl);
  }, 60_000);

  test("a task as the previous release stored it (arguments of 64 KiB or more in its own hash) is read whole; dropping its checkpoints, or a parted task's, sets its bytes back to its arguments'", async () => {
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'legacy' });
    closers.push(() => tasks.close());
    // A sealed value as Redis keeps it: a NUL, then the bytes its base64url text encodes.
    const stored = (text: string) => Buffer.concat([Buffer.from([0]), Buffer.from(text, 'base64url')]);
    const checkpoint = stored(randomBytes(1000).toString('base64url'));
    const withCheckpoint = (key: string, bytes: number) =>
      withRedis((connection) =>
        connection.hSet(key, { checkpoints: '1', 'checkpoint:1': checkpoint, bytes: String(bytes + checkpoint.length) }),
      );
    const bytesOf = (key: string) => withRedis((connection) => connection.hGet(key, 'bytes'));
    const createdAt = Date.now();
    const head = { taskId: 'old-ref', tool: 'report', createdAt, ttlMs: 60_000, pollIntervalMs: 100 };
    const oldCall = randomBytes(100 * 1024).toString('base64url');
    await withRedis((connection) =>
      connection.hSet('legacy:task:old-ref', {
        head: JSON.stringify(head),
        status: 'working',
        version: '1',
        lastUpdatedAt: String(createdAt),
        call: stored(oldCall),
      }),
    );
    await withCheckpoint('legacy:task:old-ref', stored(oldCall).length);
    const old = await tasks.get('old-ref');
    expect(old?.call).toBe(oldCall);
    expect(old?.checkpoints).toHaveLength(1);
    expect(await tasks.update('old-ref', 1, { checkpoints: null })).toMatchObject({ ok: true, task: { status: 'working', version: 2 } });
    expect(await bytesOf('legacy:task:old-ref')).toBe(String(stored(oldCall).length));
    // A task this release stores with large arguments: read whole from their parts, its bytes theirs.
    const newCall = randomBytes(600 * 1024).toString('base64url');
    await tasks.create({ ...head, taskId: 'new-ref', call: newCall });
    expect((await tasks.get('new-ref'))?.call).toBe(newCall);
    expect(await bytesOf('legacy:task:new-ref')).toBe(String(stored(newCall).length));
    await withCheckpoint('legacy:task:new-ref', stored(newCall).length);
    expect(await tasks.update('new-ref', 1, { checkpoints: null })).toMatchObject({ ok: true });
    expect(await bytesOf('legacy:task:new-ref')).toBe(String(stored(newCall).length));
    // Its parts gone (as when they expire): the task reads as gone, not as a task without arguments.
    await withRedis((connection) => connection.del('legacy:task:new-ref:call'));
    expect(await tasks.get('new-ref')).toBeUndefined();
  }, 60_000);

  test("closing a store twice (serveHttp's close() hands its rounds over, then the user closes it) resolves, a round still running included", async () => {
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'twice' });
    const build = () => new WorkflowServer({ name: 'twice', version: '1.0.0' }, { tasks, pause }).use(GatedJob);
    const serving = await serveHttp(build, { port: 0, onerror: () => {} });
    const client = await connectHttp(serving.url);
    closers.push(() => client.close());
    expect((await startTask(client, { name: 'gated_job', arguments: {} })).taskId).toEqual(expect.any(String));
    while (!seen.includes('gated started')) await new Promise((resolve) => setTimeout(resolve, 10));
    // serveHttp's close() closes the store: its round goes back to the queue, its tool (which ignores its signal) still runs.
    await serving.close();
    await expect(tasks.close()).resolves.toBeUndefined();
    gate();
  }, 60_000);

  test('maxTasks must be a positive integer, as for memoryTasks', () => {
    expect(() => bullmqTasks({ connection: { host: '127.0.0.1', port: 1 }, maxTasks: 0 })).toThrow(
      'mcpflow bullmqTasks: maxTasks must be a positive integer, not 0.',
    );
  });

  test('Redis down when the store first connects: the request gets a clear error; once Redis is started the next request connects (the failure is not kept)', async () => {
    await redis.down();
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'late-open', connectTimeoutMs: 1000 });
    const wire = RawTaskWire.inProcess(() => taskServer(tasks, { pause }));
    closers.push(
      () => wire.close(),
      () => tasks.close(),
    );
    const before = await wire.client.request('tasks/get', { taskId: 'no-such-task' });
    expect(before.error).toMatchObject({ code: -32603 });
    expect(before.error!.message).toContain('mcpflow bullmqTasks: Redis did not answer within 1000 ms');
    expect(before.error!.message).toContain('Fix: start Redis');

    await redis.up();
    // The same store connects now: an unknown task is the protocol's answer, not the first failure kept.
    const after = await wire.client.request('tasks/get', { taskId: 'no-such-task' });
    expect(after.error).toMatchObject({ code: -32602 });
  }, 60_000);

  test('Redis down when the store starts its worker: the call is refused naming why, and once Redis is started the next call makes a task that runs to its end', async () => {
    await redis.down();
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'late-start', connectTimeoutMs: 1000 });
    const serving = serveInProcess(() => taskServer(tasks, { pause }));
    closers.push(
      () => serving.close(),
      () => tasks.close(),
    );
    const client = await serving.connect();
    const refused = (await callTool(client, { name: 'report', arguments: { project: 'apollo' } }).catch(
      (error: unknown) => error,
    )) as Error;
    expect(refused).toMatchObject({ code: -32603 });
    expect(refused.message).toContain(
      'mcpflow tasks: the task store did not start, so no task can run yet (it is tried again at the next task)',
    );
    expect(refused.message).toContain('Redis did not answer within 1000 ms');

    await redis.up();
    // The store's worker starts with this call: the task's round runs (a functional bound, not a timing: without a worker it never would).
    const done = await callTool(
      client,
      { name: 'report', arguments: { project: 'apollo' } },
      { task: 'always', pollIntervalMs: POLL_MS, signal: AbortSignal.timeout(30_000) },
    );
    expect(JSON.stringify(done.content)).toContain('the total is 42');
    expect(seen).toEqual(['fetch_figures apollo', 'summarize 42']);
  }, 60_000);

  test('Redis down mid-run: tasks/get gets a clear error and the server serves other requests; once Redis is back the task goes on and completes', async () => {
    const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: redis.port }, prefix: 'outage', connectTimeoutMs: 2000 });
    const { client, wire } = await serve(() => new WorkflowServer({ name: 'outage', version: '1.0.0' }, { tasks, pause }).use(GatedJob));
    const taskId = (await wire.call('gated_job', {})).result!.taskId as string;
    while (!seen.includes('gated started')) await new Promise((resolve) => setTimeout(resolve, 10));

    await redis.down();
    const during = await wire.request('tasks/get', { taskId });
    expect(during.error).toMatchObject({ code: -32603 });
    expect(during.error!.message).toMatch(
      /^mcpflow bullmqTasks: Redis is unreachable \(.*\)\. The tasks are kept in Redis, not lost: retry once Redis is back/,
    );
    const listed = await wire.request('tools/list', {});
    expect(listed.result!.tools.map((tool: { name: string }) => tool.name)).toContain('gated_job');

    await redis.up();
    // The records' connection comes back by itself: tasks/get answers again, the task still working at the gate.
    let after = await wire.request('tasks/get', { taskId });
    while (after.error) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      after = await wire.request('tasks/get', { taskId });
    }
    expect(after.result!.status).toBe('working');
    gate();
    // The user's client follows it to its end.
    const done = await resumeTask(client, taskId, { pollIntervalMs: POLL_MS });
    expect(JSON.stringify(done.content)).toContain('closed');
    expect(seen).toEqual(['gated started', 'gated done', 'closing']);
  }, 90_000);
});
