import { createClient } from 'redis';
import { WorkflowServer, bullmqTasks, memoryTasks, serveHttp, type TaskStore, type WorkflowServerOptions } from '@mcpflow/core/v2';
import { REDIS_REQUIRED, redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { callTool, resumeTask, TaskCancelledError } from '@mcpflow/client';
import type { Client } from '@modelcontextprotocol/client';
import { RawTaskWire, type RawRequestOptions } from '../helpers/raw-task-wire';
import { connectHttp, POLL_MS, serveInProcess, startTask } from '../helpers/task-serving';
import { seen, taskServer } from './task-workflows';

/**
 * DESIGN §2.13 "Principal" (issue 38.3): a task answers only to the principal that created it,
 * whatever the JSON type of the user id its token carries, on memoryTasks and on bullmqTasks over a
 * real redis-server; Redis holds the task id and the principal only as HMACs. And `maxTasksPerClient`
 * (issue 38.4): one client cannot take all of `maxTasks`.
 */
const KEY = 'principals-test-key-of-32-bytes!!!!';
const pause = { keys: [KEY] };

const user = (extra: Record<string, unknown>): RawRequestOptions => ({
  authInfo: { token: `t-${JSON.stringify(extra)}`, clientId: 'app', scopes: [], extra },
});

const available = redisServerInstalled();
if (!available && REDIS_REQUIRED) {
  test('redis-server is installed (CI runs bullmqTasks against a real server)', () => {
    throw new Error('redis-server is not installed: `apt-get install -y redis-server` (.ci/run does it when missing)');
  });
}

let redis: RedisServer | undefined;
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

/** A server on a store from `store`, in process: its raw wire, and SDK 2.x clients of it as a principal. */
function client(
  store: () => TaskStore,
  options: WorkflowServerOptions = {},
): RawTaskWire & { as(who: RawRequestOptions): Promise<Client> } {
  const tasks = store();
  const served = serveInProcess(() => taskServer(tasks, { pause, ...options }));
  closers.push(
    () => served.close(),
    () => tasks.close(),
  );
  return Object.assign(new RawTaskWire(served.fetch), { as: (who: RawRequestOptions) => served.connect({ authInfo: who.authInfo }) });
}

/** Starts long_wait as `who`, through `@mcpflow/client`: its task id, and `stop()`, which cancels it (and checks it reads cancelled to its owner). */
async function longWaitAs(tasks: ReturnType<typeof client>, who: RawRequestOptions) {
  const owner = await tasks.as(who);
  const started = await startTask(owner, { name: 'long_wait', arguments: {} });
  return {
    taskId: started.taskId,
    async stop() {
      expect(await started.stop()).toEqual(new Error('stopped by the test'));
      await expect(resumeTask(owner, started.taskId, { pollIntervalMs: POLL_MS })).rejects.toBeInstanceOf(TaskCancelledError);
    },
  };
}

/** Whether `stranger` is told of `taskId` exactly as of a task that never was, on get, update and cancel. */
async function expectForeign(tasks: RawTaskWire, taskId: string, stranger: RawRequestOptions): Promise<void> {
  const other = taskId.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'));
  for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
    const params = method === 'tasks/update' ? { inputResponses: {} } : {};
    const foreign = await tasks.request(method, { taskId, ...params }, stranger);
    const unknown = await tasks.request(method, { taskId: other, ...params }, stranger);
    expect(foreign.error?.code).toBe(-32602);
    expect(foreign.error!.message.replace(taskId, 'ID')).toBe(unknown.error!.message.replace(other, 'ID'));
  }
}

/** A store of each kind, with these options; each bullmqTasks on a prefix of its own. */
type MakeStore = (options?: { maxTasks?: number }) => TaskStore;
let prefixes = 0;
const stores: [string, MakeStore][] = [
  ['memoryTasks', (options) => memoryTasks(options)],
  ...(available
    ? [
        [
          'bullmqTasks',
          (options?: { maxTasks?: number }) =>
            bullmqTasks({ connection: { host: '127.0.0.1', port: redis!.port }, prefix: `principals-${++prefixes}`, ...options }),
        ] as [string, MakeStore],
      ]
    : []),
];

describe.each(stores)('principals on %s', (_name, store) => {
  test('two users with numeric ids, one OAuth client: neither sees nor cancels the other’s task (-32602, as an unknown id)', async () => {
    const tasks = client(store);
    const [one, two] = [user({ userId: 1 }), user({ userId: 2 })];
    const { taskId, stop } = await longWaitAs(tasks, one);
    await expectForeign(tasks, taskId, two);
    // Nor a request without a principal, nor the same id as a string, nor the OAuth client alone.
    for (const stranger of [{}, user({ userId: '1' }), user({})]) await expectForeign(tasks, taskId, stranger);
    expect((await tasks.request('tasks/get', { taskId }, user({ sub: 1 }))).result!.status).toBe('working');
    expect((await tasks.request('tasks/get', { taskId }, one)).result).toMatchObject({ taskId, status: 'working' });
    await stop();
  }, 60_000);

  test('the principal server option decides who a request is', async () => {
    const tasks = client(store, { principal: (authInfo) => String(authInfo.extra?.team) });
    const { taskId } = await longWaitAs(tasks, user({ userId: 1, team: 'red' }));
    // Another user of the same team is the same principal; a user of another team is not.
    expect((await tasks.request('tasks/get', { taskId }, user({ userId: 2, team: 'red' }))).result!.status).toBe('working');
    await expectForeign(tasks, taskId, user({ userId: 1, team: 'blue' }));
    // A teammate cancels it (their call's signal), and another reads it cancelled.
    const teammate = await tasks.as(user({ userId: 3, team: 'red' }));
    const stop = new AbortController();
    const onStatus = () => stop.abort(new Error('cancelled by a teammate'));
    await expect(resumeTask(teammate, taskId, { signal: stop.signal, onStatus })).rejects.toThrow('cancelled by a teammate');
    expect((await tasks.request('tasks/get', { taskId }, user({ team: 'red' }))).result!.status).toBe('cancelled');
    await expect(resumeTask(await tasks.as(user({ team: 'red' })), taskId)).rejects.toBeInstanceOf(TaskCancelledError);
  }, 60_000);
});

describe.each(stores)('maxTasksPerClient on %s', (_name: string, store: MakeStore) => {
  test('by default a tenth of maxTasks: a client past it is refused naming the option, and another client is not locked out', async () => {
    const tasks = client(() => store({ maxTasks: 10 }));
    const [one, two] = [user({ userId: 1 }), user({ userId: 2 })];
    const first = await longWaitAs(tasks, one);
    const refused = await callTool(await tasks.as(one), { name: 'long_wait', arguments: {} }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: -32603 });
    expect((refused as Error).message).toContain('this client already keeps 1 tasks that have not expired');
    expect((refused as Error).message).toContain('maxTasksPerClient: 1, by default a tenth of maxTasks');
    const other = await longWaitAs(tasks, two);
    expect((await tasks.request('tasks/get', { taskId: other.taskId }, two)).result!.status).toBe('working');
    await first.stop();
    await other.stop();
  }, 60_000);
});

test('maxTasksPerClient without a principal counts by address (serveHttp over 127.0.0.1), and must be a positive integer', async () => {
  const tasks = memoryTasks({ maxTasks: 20, maxTasksPerClient: 2 });
  const serving = await serveHttp(() => taskServer(tasks), { port: 0, onerror: () => {} });
  closers.push(() => serving.close());
  const overHttp = await connectHttp(serving.url);
  closers.unshift(() => overHttp.close());
  const made = [
    await startTask(overHttp, { name: 'long_wait', arguments: {} }),
    await startTask(overHttp, { name: 'long_wait', arguments: {} }),
  ];
  await expect(callTool(overHttp, { name: 'long_wait', arguments: {} })).rejects.toThrow('(memoryTasks maxTasksPerClient: 2');
  for (const task of made) expect(await task.stop()).toEqual(new Error('stopped by the test'));
  expect(() => memoryTasks({ maxTasksPerClient: 0 })).toThrow('mcpflow memoryTasks: maxTasksPerClient must be a positive integer, not 0.');
});

test('a principal option that is not a function is refused when the server is made, naming it', () => {
  expect(() => new WorkflowServer({ name: 'p', version: '1.0.0' }, { principal: 'sub' as never })).toThrow(
    expect.objectContaining({
      name: 'InvalidServerOptionError',
      message: expect.stringContaining('WorkflowServer option principal must be'),
    }),
  );
});

(available ? test : test.skip)(
  'bullmqTasks: Redis holds the task id and the principal only as HMACs',
  async () => {
    const tasks = client(() => bullmqTasks({ connection: { host: '127.0.0.1', port: redis!.port }, prefix: 'hmacs' }));
    const owner = user({ sub: 'alice@example.com' });
    let taskId = '';
    const report = await callTool(
      await tasks.as(owner),
      { name: 'report', arguments: { project: 'atlas' } },
      { pollIntervalMs: POLL_MS, onStatus: (task) => (taskId = task.taskId) },
    );
    expect(report.structuredContent).toMatchObject({ status: 'completed' });
    expect(taskId).not.toBe('');
    const scan = createClient({ url: redis!.url });
    await scan.connect();
    const dump: string[] = [];
    for await (const keys of scan.scanIterator({ MATCH: 'hmacs:*', COUNT: 100 })) {
      for (const key of ([] as string[]).concat(keys)) {
        const type = await scan.type(key);
        const value = type === 'string' ? await scan.get(key) : type === 'hash' ? JSON.stringify(await scan.hGetAll(key)) : '';
        dump.push(key, value ?? '');
      }
    }
    await scan.close();
    expect(dump.length).toBeGreaterThan(0);
    expect(dump.join('\n')).not.toContain(taskId);
    expect(dump.join('\n')).not.toContain('alice');
  },
  60_000,
);
