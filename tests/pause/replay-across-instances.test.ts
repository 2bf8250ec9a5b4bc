import type { GetPromptResult } from '@modelcontextprotocol/server';
import { REDIS_REQUIRED, redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';
import { getPrompt, manualClient, paused, startInstance, stopInstances, type Instance } from './instances';

/**
 * Single use across a fleet (DESIGN §2.8): two instances in processes of their own, with the same
 * keys. Sharing a `redisReplayGuard` on a real redis-server (started here), a state resumed on one
 * instance is refused on the other — through node-redis and through ioredis. Without it, each
 * process remembers only its own resumes: the limit the docs state. And every tool of a run sees
 * one run id, whichever instance serves the round.
 */
const KEY = 'a fleet-wide key for the replay tests, 32 bytes+';
const args = { project: 'mcp tester', task: 'Fix the login bug' };
const answer = { 'added/project': { action: 'accept', content: { project: 'MCP Tester' } } };

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
afterAll(stopInstances);

const runRedis = redisServerInstalled() || REDIS_REQUIRED ? describe : describe.skip;

type Method = 'prompts/get' | 'tools/call';

/**
 * The first round on `first`, the resume on `second`; then the replay on `replayOn`, each through
 * `method` (the workflow's prompt, or its tool): the replay's outcome, and what ran where.
 */
async function resumeThenReplay(first: Instance, second: Instance, replayOn: Instance, method: Method = 'prompts/get') {
  const before = [await first.counts(), await second.counts(), await replayOn.counts()];
  const call = async (on: Instance, params: Record<string, unknown>) =>
    getPrompt(await manualClient(on.url, closers), { name: 'add_project_task', arguments: args, ...params }, method);
  const state = paused(await call(first, {})).requestState;
  const resumed = (await call(second, { inputResponses: answer, requestState: state })) as GetPromptResult;
  expect(resumed._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  const addedBefore = (await replayOn.counts()).add_task;
  const replay = await call(replayOn, { inputResponses: answer, requestState: state }).then(
    (result) => ({ accepted: result }),
    (error: { code: number; message: string }) => ({ refused: error }),
  );
  return { replay, addTaskRunsOnReplay: (await replayOn.counts()).add_task - addedBefore, before };
}

runRedis.each([['node-redis' as const], ['ioredis' as const]])('instances sharing redisReplayGuard through %s', (client) => {
  let redis: RedisServer;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    redis = await startRedisServer();
    [a, b] = await Promise.all([0, 1].map(() => startInstance({ keys: [KEY], redis: { url: redis.url, client } })));
  }, 60_000);
  afterAll(async () => {
    stopInstances();
    await redis?.stop();
  });

  const faces = [
    { face: 'prompt', method: 'prompts/get', called: 'Prompt' },
    { face: 'tool', method: 'tools/call', called: 'Tool' },
  ] as const;

  test.each(faces)('through its $face, a state resumed on one instance is refused on the other, and nothing runs there', async (row) => {
    const { replay, addTaskRunsOnReplay } = await resumeThenReplay(a, a, b, row.method);
    expect(replay).toEqual({
      refused: expect.objectContaining({
        code: -32602,
        message: expect.stringMatching(
          new RegExp(`^${row.called} add_project_task: requestState rejected: it was used already.*retry ${row.method} 'add_project_task'`),
        ),
      }),
    });
    expect(addTaskRunsOnReplay).toBe(0);
  });

  test.each(faces)('through its $face, resumed on the other instance and replayed on the first: refused as well', async (row) => {
    const { replay, addTaskRunsOnReplay } = await resumeThenReplay(a, b, a, row.method);
    expect(replay).toEqual({ refused: expect.objectContaining({ code: -32602 }) });
    expect(addTaskRunsOnReplay).toBe(0);
  });
});

describe('instances with the default memoryReplayGuard', () => {
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    [a, b] = await Promise.all([0, 1].map(() => startInstance({ keys: [KEY] })));
  }, 60_000);

  test.each([
    { face: 'prompt', method: 'prompts/get', result: { messages: expect.any(Array) } },
    { face: 'tool', method: 'tools/call', result: { structuredContent: expect.objectContaining({ status: 'completed' }) } },
  ] as const)(
    'through its $face, each refuses a replay of what it resumed itself, but not of what the other resumed: a fleet needs a shared guard',
    async ({ method, result }) => {
      const own = await resumeThenReplay(a, a, a, method);
      expect(own.replay).toEqual({ refused: expect.objectContaining({ code: -32602 }) });
      const other = await resumeThenReplay(a, a, b, method);
      expect(other.replay).toEqual({ accepted: expect.objectContaining(result) });
      expect(other.addTaskRunsOnReplay).toBe(1);
    },
  );

  test('every tool of a run sees one run id, in both rounds, on both instances', async () => {
    const [seenByA, seenByB] = [(await a.runs()).length, (await b.runs()).length];
    const state = paused(
      await getPrompt(await manualClient(a.url, closers), { name: 'record_run', arguments: { label: 'v2' } }),
    ).requestState;
    const done = (await getPrompt(await manualClient(b.url, closers), {
      name: 'record_run',
      arguments: { label: 'v2' },
      inputResponses: { 'after/label': { action: 'accept', content: { label: 'yes' } } },
      requestState: state,
    })) as GetPromptResult;
    expect(done._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    const [before] = (await a.runs()).slice(seenByA);
    const [after] = (await b.runs()).slice(seenByB);
    expect(before).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(after).toBe(before);
    // A second run has an id of its own, and the trace never shows one.
    const again = paused(await getPrompt(await manualClient(a.url, closers), { name: 'record_run', arguments: { label: 'v2' } }));
    expect((await a.runs()).at(-1)).not.toBe(before);
    expect(JSON.stringify([done, again])).not.toContain(before);
  });
});
