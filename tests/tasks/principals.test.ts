import { createClient } from 'redis';
import { WorkflowServer, bullmqTasks, memoryTasks, serveHttp, type TaskStore, type WorkflowServerOptions } from '@mcpflow/core/v2';
import { REDIS_REQUIRED, redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { TaskClient, type RequestOptions } from './task-client';
import { seen, taskServer } from './task-workflows';

/**
 * DESIGN §2.13 "Principal" (issue 38.3): a task answers only to the principal that created it,
 * whatever the JSON type of the user id its token carries, on memoryTasks and on bullmqTasks over a
 * real redis-server; Redis holds the task id and the principal only as HMACs. And `maxTasksPerClient`
 * (issue 38.4): one client cannot take all of `maxTasks`.
 */
const KEY = 'principals-test-key-of-32-bytes!!!!';
const pause = { keys: [KEY] };

const user = (extra: Record<string, unknown>): RequestOptions => ({
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

function client(store: () => TaskStore, options: WorkflowServerOptions = {}): TaskClient {
  const tasks = store();
  const served = TaskClient.inProcess(() => taskServer(tasks, { pause, ...options }));
  closers.push(served.close, () => tasks.close());
  return served.client;
}

/** Whether `stranger` is told of `taskId` exactly as of a task that never was, on get, update and cancel. */
async function expectForeign(tasks: TaskClient, taskId: string, stranger: RequestOptions): Promise<void> {
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
    const taskId: string = (await tasks.call('long_wait', {}, one)).result!.taskId;
    await expectForeign(tasks, taskId, two);
    // Nor a request without a principal, nor the same id as a string, nor the OAuth client alone.
    for (const stranger of [{}, user({ userId: '1' }), user({})]) await expectForeign(tasks, taskId, stranger);
    expect((await tasks.request('tasks/get', { taskId }, user({ sub: 1 }))).result!.status).toBe('working');
    expect((await tasks.request('tasks/get', { taskId }, one)).result).toMatchObject({ taskId, status: 'working' });
    await tasks.request('tasks/cancel', { taskId }, one);
    expect((await tasks.until(taskId, undefined, one)).status).toBe('cancelled');
  }, 60_000);

  test('the principal server option decides who a request is', async () => {
    const tasks = client(store, { principal: (authInfo) => String(authInfo.extra?.team) });
    const taskId: string = (await tasks.call('long_wait', {}, user({ userId: 1, team: 'red' }))).result!.taskId;
    // Another user of the same team is the same principal; a user of another team is not.
    expect((await tasks.request('tasks/get', { taskId }, user({ userId: 2, team: 'red' }))).result!.status).toBe('working');
    await expectForeign(tasks, taskId, user({ userId: 1, team: 'blue' }));
    await tasks.request('tasks/cancel', { taskId }, user({ userId: 3, team: 'red' }));
    expect((await tasks.until(taskId, undefined, user({ team: 'red' }))).status).toBe('cancelled');
  }, 60_000);
});

describe.each(stores)('maxTasksPerClient on %s', (_name: string, store: MakeStore) => {
  test('by default a tenth of maxTasks: a client past it is refused naming the option, and another client is not locked out', async () => {
    const tasks = client(() => store({ maxTasks: 10 }));
    const [one, two] = [user({ userId: 1 }), user({ userId: 2 })];
    const first: string = (await tasks.call('long_wait', {}, one)).result!.taskId;
    const refused = await tasks.call('long_wait', {}, one);
    expect(refused.error?.code).toBe(-32603);
    expect(refused.error!.message).toContain('this client already keeps 1 tasks that have not expired');
    expect(refused.error!.message).toContain('maxTasksPerClient: 1, by default a tenth of maxTasks');
    const other: string = (await tasks.call('long_wait', {}, two)).result!.taskId;
    expect((await tasks.request('tasks/get', { taskId: other }, two)).result!.status).toBe('working');
    await tasks.request('tasks/cancel', { taskId: first }, one);
    await tasks.request('tasks/cancel', { taskId: other }, two);
  }, 60_000);
});

test('maxTasksPerClient without a principal counts by address (serveHttp over 127.0.0.1), and must be a positive integer', async () => {
  const tasks = memoryTasks({ maxTasks: 20, maxTasksPerClient: 2 });
  const serving = await serveHttp(() => taskServer(tasks), { port: 0, onerror: () => {} });
  closers.push(() => serving.close());
  const overHttp = TaskClient.overHttp(serving.url);
  const made = [(await overHttp.call('long_wait', {})).result!.taskId, (await overHttp.call('long_wait', {})).result!.taskId];
  expect((await overHttp.call('long_wait', {})).error!.message).toContain('(memoryTasks maxTasksPerClient: 2');
  for (const taskId of made) await overHttp.request('tasks/cancel', { taskId });
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
    const taskId: string = (await tasks.call('report', { project: 'atlas' }, owner)).result!.taskId;
    expect((await tasks.until(taskId, undefined, owner)).status).toBe('completed');
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
