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

/** The first round on `first`, the resume on `second`; then the replay on `replayOn`: its outcome, and what ran where. */
async function resumeThenReplay(first: Instance, second: Instance, replayOn: Instance) {
  const before = [await first.counts(), await second.counts(), await replayOn.counts()];
  const state = paused(await getPrompt(await manualClient(first.url, closers), { name: 'add_project_task', arguments: args })).requestState;
  const resumed = (await getPrompt(await manualClient(second.url, closers), {
    name: 'add_project_task',
    arguments: args,
    inputResponses: answer,
    requestState: state,
  })) as GetPromptResult;
  expect(resumed._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  const addedBefore = (await replayOn.counts()).add_task;
  const replay = await getPrompt(await manualClient(replayOn.url, closers), {
    name: 'add_project_task',
    arguments: args,
    inputResponses: answer,
    requestState: state,
  }).then(
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

  test('a state resumed on one instance is refused on the other, and nothing runs there', async () => {
    const { replay, addTaskRunsOnReplay } = await resumeThenReplay(a, a, b);
    expect(replay).toEqual({
      refused: expect.objectContaining({ code: -32602, message: expect.stringMatching(/requestState rejected: it was used already/) }),
    });
    expect(addTaskRunsOnReplay).toBe(0);
  });

  test('resumed on the other instance, replayed on the first: refused as well', async () => {
    const { replay, addTaskRunsOnReplay } = await resumeThenReplay(a, b, a);
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

  test('each refuses a replay of what it resumed itself, but not of what the other resumed: a fleet needs a shared guard', async () => {
    const own = await resumeThenReplay(a, a, a);
    expect(own.replay).toEqual({ refused: expect.objectContaining({ code: -32602 }) });
    const other = await resumeThenReplay(a, a, b);
    expect(other.replay).toEqual({ accepted: expect.objectContaining({ messages: expect.any(Array) }) });
    expect(other.addTaskRunsOnReplay).toBe(1);
  });

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
