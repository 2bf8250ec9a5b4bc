import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from '@modelcontextprotocol/client';
import { createMcpHandler, type GetPromptResult } from '@modelcontextprotocol/server';
import { WorkflowServer } from '@mcpflow/core/v2';
import { redisReplayGuard, type RedisReplayGuardOptions } from '../../packages/core/src/adapter-kit/pause/redis-replay-guard';
import { redisClientReady, type RedisClientLike } from '../../packages/core/src/adapter-kit/pause/redis-client';
import { ReplayGuardError } from '../../packages/core/src/engine/sealing/replay-guard-error';
import type { ReplayGuard } from '../../packages/core/src/engine/sealing/replay-guard';
import { servedOnLoopback } from '../helpers/loopback-handler';
import { redisClientKinds, describeIfRedis } from '../helpers/redis-clients';
import { startRedisServer, type RedisServer } from '../helpers/redis-server';
import { AddProjectTaskByName } from './project-workflow';

/**
 * `redisReplayGuard` when Redis forgets (issue 31, findings 3 and 7), against a real `redis-server`
 * each test starts: after a restart without persistence, a `FLUSHALL`, or another tenant's writes
 * under `maxmemory-policy volatile-lru`, no round consumed before is accepted again — the guard
 * refuses as `unavailable` until every state of before has expired, then accepts again; a resume
 * refused while Redis did not answer never consumes the round its retry needs; the start check
 * warns when Redis may evict. Through node-redis and ioredis, and once through a 2.x client over
 * HTTP (protocol 2026-07-28). In CI this file fails rather than skips when `redis-server` is missing.
 */

const quiet = () => undefined;
const KINDS = redisClientKinds('node-redis 6 client', 'ioredis client');
const describeWithRedis = describeIfRedis();

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  // Clients first, then the servers they talk to.
  for (const close of closers.splice(0).reverse()) await close();
});

async function server(): Promise<RedisServer> {
  const started = await startRedisServer();
  closers.push(() => started.stop());
  return started;
}

async function connect(kind: (typeof KINDS)[number], on: RedisServer): Promise<RedisClientLike> {
  const connection = await kind.connect(on);
  closers.push(() => connection.close());
  return connection.client;
}

/** Waits until the client says it is `ready` (or not), as it reconnects on its own. */
async function until(client: RedisClientLike, ready: boolean): Promise<void> {
  for (let waited = 0; redisClientReady(client) !== ready; waited += 20) {
    if (waited > 15_000) throw new Error(`the Redis client was not ${ready ? 'ready' : 'disconnected'} within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const run = () => `run-${randomBytes(9).toString('base64url')}`;
/** The epoch a state of `runId` is sealed with now, as the engine asks it when a run pauses. */
async function epochOf(guard: ReplayGuard, runId: string): Promise<string> {
  const epoch = await guard.generation!(runId);
  if (typeof epoch !== 'string') throw new Error(`the guard named no epoch for ${runId}`);
  return epoch;
}
/** What a consume came to: its verdict, or the problem of the guard's refusal. */
const outcome = (attempt: Promise<string>) =>
  attempt.catch((error: unknown) => (error instanceof ReplayGuardError ? error.problem : error));
const LOST =
  /^mcpflow replay guard: Redis lost the guard's keys \(restarted, flushed or evicted\).*the resume is refused rather than risk running its steps twice\.$/;

const STALE =
  /^mcpflow replay guard: Redis lost the guard's keys \(restarted, flushed or evicted\) after this state was sealed, .*Start the run again without requestState\.$/;

const LOSSES = [
  { loss: 'a restart without persistence', lose: (redis: RedisServer) => redis.restart(), refused: 'unavailable' },
  { loss: 'FLUSHALL', lose: (redis: RedisServer) => redis.flushAll(), refused: 'unavailable' },
  // Nothing of the guard has a TTL, so volatile-lru evicts the other tenant's keys and never the guard's.
  { loss: "another tenant's writes under volatile-lru", lose: (redis: RedisServer) => redis.squeeze('volatile-lru'), refused: 'replayed' },
] as const;

describeWithRedis.each(KINDS)('redisReplayGuard with a $label, when Redis loses its keys', (kind) => {
  const options: RedisReplayGuardOptions = { logger: quiet };

  test.each(LOSSES)('after $loss, none of 20 consumed rounds is accepted again', async ({ lose, refused }) => {
    const redis = await server();
    const client = await connect(kind, redis);
    const guard = redisReplayGuard(client, options);
    const rounds = Array.from({ length: 20 }, () => ({ runId: run(), round: 1, ttlMs: 600_000 }));
    for (const round of rounds) expect(await guard.consume(round)).toBe('first');
    await lose(redis);
    await until(client, true);
    const outcomes = [];
    for (const round of rounds) outcomes.push(await outcome(guard.consume(round)));
    expect(outcomes).toEqual(rounds.map(() => refused));
    if (refused === 'unavailable') await expect(guard.consume(rounds[0])).rejects.toThrow(LOST);
  });

  test('after a loss, resumes are refused until stateTtlSeconds + clockSkewMs have passed, on every instance, then accepted again', async () => {
    const redis = await server();
    const guard = redisReplayGuard(await connect(kind, redis), { stateTtlSeconds: 1, clockSkewMs: 200, logger: quiet });
    const [before, after] = [run(), run()];
    expect(await guard.consume({ runId: before, round: 1, ttlMs: 1_000 })).toBe('first');
    await redis.flushAll();
    await expect(guard.consume({ runId: before, round: 1, ttlMs: 1_000 })).rejects.toThrow(LOST);
    await expect(guard.consume({ runId: after, round: 1, ttlMs: 1_000 })).rejects.toThrow(LOST);
    // An instance that starts after the loss was seen learns of it from Redis and waits as well.
    const late = redisReplayGuard(await connect(kind, redis), { stateTtlSeconds: 1, clockSkewMs: 200, logger: quiet });
    await expect(late.consume({ runId: after, round: 1, ttlMs: 1_000 })).rejects.toThrow(LOST);
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    expect(await guard.consume({ runId: after, round: 1, ttlMs: 1_000 })).toBe('first');
    expect(await late.consume({ runId: after, round: 1, ttlMs: 1_000 })).toBe('replayed');
  });

  test('an instance that started after a loss no instance had seen refuses as well, once one that ran before sees it', async () => {
    const redis = await server();
    const before = redisReplayGuard(await connect(kind, redis), { logger: quiet });
    const consumed = { runId: run(), round: 1, ttlMs: 60_000 };
    expect(await before.consume(consumed)).toBe('first');
    await redis.flushAll();
    // A new instance finds no epoch: it cannot tell a lost set from a new one, and starts one.
    const started = redisReplayGuard(await connect(kind, redis), { logger: quiet });
    expect(await started.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first');
    // The instance that ran before sees the loss at its next resume of a run in that set (every round of a run is in one).
    await expect(before.consume({ ...consumed, round: 2 })).rejects.toThrow(LOST);
    await expect(started.consume(consumed)).rejects.toThrow(LOST);
    await expect(started.consume(consumed)).rejects.toThrow(LOST);
  });

  test('when Redis and every instance restart together, a state sealed before is refused; one sealed after resumes at once, once', async () => {
    const redis = await server();
    const before = redisReplayGuard(await connect(kind, redis), options);
    expect(await before.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first'); // started
    const runId = run();
    const sealed = { runId, round: 1, ttlMs: 60_000, generation: await epochOf(before, runId) };
    expect(await before.consume(sealed)).toBe('first');
    await redis.restart();
    // The instance restarts with Redis: a new client and a new guard, which find no epoch and write one.
    const after = redisReplayGuard(await connect(kind, redis), options);
    await expect(after.consume(sealed)).rejects.toThrow(STALE);
    await expect(after.consume(sealed)).rejects.toThrow(STALE);
    // Not a window of unavailability: a first start is not blocked.
    const fresh = run();
    const since = { runId: fresh, round: 1, ttlMs: 60_000, generation: await epochOf(after, fresh) };
    expect(await after.consume(since)).toBe('first');
    expect(await outcome(after.consume(since))).toBe('replayed');
  });

  test('after a loss, a state sealed since resumes at once on every instance; one sealed before, or naming no epoch, waits', async () => {
    const redis = await server();
    const one = redisReplayGuard(await connect(kind, redis), options);
    const other = redisReplayGuard(await connect(kind, redis), options);
    for (const guard of [one, other]) expect(await guard.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first'); // started
    const runId = run(); // every round of a run is in one set
    const sealed = async (round: number) => ({ runId, round, ttlMs: 60_000, generation: await epochOf(one, runId) });
    const first = await sealed(1);
    expect(await one.consume(first)).toBe('first');
    await redis.flushAll();
    await expect(one.consume(first)).rejects.toThrow(LOST);
    const second = await sealed(2); // sealed once `one` had seen the loss: under the epoch it wrote then
    expect(second.generation).not.toEqual(first.generation);
    // `other` has not seen the loss: Redis tells it, it adopts the new epoch and resumes the state sealed under it.
    expect(await other.consume(second)).toBe('first');
    expect(await outcome(one.consume(second))).toBe('replayed');
    await expect(other.consume(first)).rejects.toThrow(LOST);
    await expect(one.consume({ runId, round: 3, ttlMs: 60_000 })).rejects.toThrow(LOST);
  });

  test('after Redis crashed and came back from a snapshot older than its last rounds, none of them is accepted again, on any instance', async () => {
    const redis = await server();
    const client = await connect(kind, redis);
    const before = redisReplayGuard(client, options);
    expect(await before.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first'); // started
    await redis.save(); // the snapshot holds the epoch, not the rounds consumed next
    const runId = run();
    const sealed = { runId, round: 1, ttlMs: 60_000, generation: await epochOf(before, runId) };
    const unsealed = { runId: run(), round: 1, ttlMs: 60_000 }; // a state that names no epoch
    for (const round of [sealed, unsealed]) expect(await before.consume(round)).toBe('first');
    await redis.restart({ crash: true });
    // A new instance, and the one that ran before once its client is back.
    const after = redisReplayGuard(await connect(kind, redis), options);
    expect(await outcome(after.consume(sealed))).toBe('unavailable');
    expect(await outcome(after.consume(unsealed))).toBe('unavailable');
    await until(client, true);
    expect(await outcome(before.consume(sealed))).toBe('unavailable');
    expect(await outcome(before.consume(unsealed))).toBe('unavailable');
  });

  test('a state sealed before the guard has read Redis names its epoch all the same: the pause waits for it', async () => {
    const guard = redisReplayGuard(await connect(kind, await server()), options);
    const runId = run();
    const told = guard.generation!(runId);
    expect(typeof told).not.toBe('string');
    expect(await told).toEqual(await epochOf(guard, runId));
  });

  test('a state that lives longer than stateTtlSeconds is refused, naming the option', async () => {
    const guard = redisReplayGuard(await connect(kind, await server()), { stateTtlSeconds: 60, clockSkewMs: 0, logger: quiet });
    await expect(guard.consume({ runId: run(), round: 1, ttlMs: 3_600_000 })).rejects.toThrow(
      /^mcpflow replay guard: this state has 3600 s left, more than redisReplayGuard's stateTtlSeconds \+ clockSkewMs allows \(60 s\): set stateTtlSeconds to the pause option's ttlSeconds/,
    );
  });
});

const CLUSTERS = redisClientKinds('node-redis 6 cluster', 'ioredis cluster');

describeWithRedis.each(CLUSTERS)('redisReplayGuard with a $label (one node holding every slot)', (kind) => {
  test('after FLUSHALL, none of 20 consumed rounds is accepted again: each set and its epoch share a hash slot', async () => {
    const redis = await startRedisServer({ cluster: true });
    closers.push(() => redis.stop());
    const connection = await kind.connect(redis);
    closers.push(() => connection.close());
    const guard = redisReplayGuard(connection.client, { logger: quiet });
    const rounds = Array.from({ length: 20 }, () => ({ runId: run(), round: 1, ttlMs: 600_000 }));
    for (const round of rounds) expect(await guard.consume(round)).toBe('first');
    for (const round of rounds) expect(await outcome(guard.consume(round))).toBe('replayed');
    await redis.flushAll();
    const outcomes = [];
    for (const round of rounds) outcomes.push(await outcome(guard.consume(round)));
    expect(outcomes).toEqual(rounds.map(() => 'unavailable'));
  });
});

describeWithRedis.each(KINDS)('redisReplayGuard with a $label, when Redis does not answer (finding 7)', (kind) => {
  test('a resume refused while Redis is frozen consumes nothing when Redis runs it late: the retry is first', async () => {
    const redis = await server();
    const client = await connect(kind, redis);
    const guard = redisReplayGuard(client, { timeoutMs: 300, logger: quiet });
    const round = { runId: run(), round: 1, ttlMs: 60_000 };
    expect(await guard.consume({ ...round, runId: run() })).toBe('first'); // started
    await redis.frozen(() => expect(guard.consume(round)).rejects.toMatchObject({ problem: 'unavailable' }));
    await new Promise((resolve) => setTimeout(resolve, 200)); // Redis runs what it was sent meanwhile
    expect(await guard.consume(round)).toBe('first');
    expect(await guard.consume(round)).toBe('replayed');
  });

  test('a resume while the client is reconnecting is refused at once, left in no offline queue: once Redis is back, the retry is first', async () => {
    const redis = await server();
    const client = await connect(kind, redis);
    // Redis restarts with every write it had (SHUTDOWN SAVE), and the guard is told it may trust that.
    const guard = redisReplayGuard(client, { timeoutMs: 300, survivesRestarts: true, logger: quiet });
    const round = { runId: run(), round: 1, ttlMs: 60_000 };
    expect(await guard.consume({ ...round, runId: run() })).toBe('first'); // started
    await redis.restart({
      persist: true,
      whileDown: async () => {
        await until(client, false);
        const refused = await guard.consume(round).catch((error: unknown) => error);
        expect(refused).toMatchObject({ problem: 'unavailable' });
      },
    });
    await until(client, true);
    await new Promise((resolve) => setTimeout(resolve, 200)); // whatever a queue held is sent by now
    expect(await guard.consume(round)).toBe('first');
  });
});

describeWithRedis('redisReplayGuard with an ioredis client made with lazyConnect and never connected', () => {
  test('its first resume connects it, as any first command does', async () => {
    const redis = await server();
    const client = new Redis({ host: '127.0.0.1', port: redis.port, lazyConnect: true });
    client.on('error', quiet);
    closers.push(async () => client.disconnect());
    const guard = redisReplayGuard(client, { logger: quiet });
    const round = { runId: run(), round: 1, ttlMs: 60_000 };
    expect(await guard.consume(round)).toBe('first');
    expect(await guard.consume(round)).toBe('replayed');
  });
});

describeWithRedis('redisReplayGuard start check: maxmemory-policy', () => {
  const [nodeRedis] = KINDS;
  const WARNING = /^mcpflow replay guard: Redis maxmemory-policy is volatile-lru: .*Set maxmemory-policy noeviction/;

  test('under volatile-lru it warns once through the logger, naming maxmemory-policy, the value and the fix', async () => {
    const redis = await server();
    const client = await connect(nodeRedis, redis);
    await (client as ReturnType<typeof createClient>).sendCommand(['CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru']);
    const lines: string[] = [];
    const guard = redisReplayGuard(client, { logger: (line) => lines.push(line) });
    expect(await guard.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first');
    expect(await guard.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first');
    expect(lines).toEqual([expect.stringMatching(WARNING)]);
  });

  test('with DEBUG=mcpflow and no logger, the warning goes to stderr', async () => {
    const redis = await server();
    const client = await connect(nodeRedis, redis);
    await (client as ReturnType<typeof createClient>).sendCommand(['CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru']);
    const written: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => written.push(String(chunk)) > 0);
    const debug = process.env.DEBUG;
    process.env.DEBUG = 'mcpflow';
    try {
      await redisReplayGuard(client).consume({ runId: run(), round: 1, ttlMs: 60_000 });
    } finally {
      process.env.DEBUG = debug;
      write.mockRestore();
    }
    expect(written).toEqual([expect.stringMatching(WARNING)]);
  });

  test('under noeviction it says nothing; where CONFIG is refused it says so once and goes on', async () => {
    const redis = await server();
    const lines: string[] = [];
    const guard = redisReplayGuard(await connect(nodeRedis, redis), { logger: (line) => lines.push(line) });
    expect(await guard.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first');
    expect(lines).toEqual([]);

    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.sendCommand(['ACL', 'SETUSER', 'managed', 'on', '>managed-password', '~*', '&*', '+@all', '-config']);
    await admin.close();
    const managed = await nodeRedis.connect(redis, { username: 'managed', password: 'managed-password' });
    closers.push(() => managed.close());
    const refused = redisReplayGuard(managed.client, { logger: (line) => lines.push(line) });
    expect(await refused.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first');
    expect(await refused.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first');
    expect(lines).toEqual([
      expect.stringMatching(/^mcpflow replay guard: could not read Redis maxmemory-policy \(CONFIG GET was refused.*noeviction/),
    ]);
  });
});

describeWithRedis('a 2.x client over HTTP (2026-07-28) replaying a state after Redis lost the guard’s keys', () => {
  const KEYS = ['the redis-losses test key, at least 32 bytes long'];
  const args = { project: 'mcp tester', task: 'Fix the login bug' };
  const answer = { 'added/project': { action: 'accept', content: { project: 'MCP Tester' } } };

  /** The projects workflow served over HTTP, each request's server with the guard `guard()` gives then; `calls` records the tools run. */
  async function served(guard: () => ReplayGuard) {
    const calls: string[] = [];
    const handler = createMcpHandler(
      () => {
        const workflows = new WorkflowServer({ name: 'projects', version: '1.0.0' }, { pause: { keys: KEYS, replayGuard: guard() } });
        workflows.registerTool('list_pages', { inputSchema: z.object({ query: z.string().optional() }) }, async () => {
          calls.push('list_pages');
          const names = ['MCP Tester', 'MCP Tester (archive)'];
          return { content: [{ type: 'text', text: JSON.stringify({ names }) }], structuredContent: { names } };
        });
        workflows.registerTool('add_task', { inputSchema: z.object({ project: z.string(), task: z.string() }) }, async ({ project }) => {
          calls.push('add_task');
          return { content: [{ type: 'text', text: JSON.stringify({ ok: true, page: project }) }] };
        });
        return workflows.use(AddProjectTaskByName);
      },
      { legacy: 'reject' },
    );
    const client = new Client(
      { name: 'replayer', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(await servedOnLoopback(handler, closers)));
    closers.push(() => client.close());
    const prompt = async (params: Record<string, unknown>) =>
      (await client.request(
        { method: 'prompts/get', params: { name: 'add_project_task', arguments: args, ...params } } as never,
        {
          allowInputRequired: true,
        } as never,
      )) as GetPromptResult | InputRequiredResult;
    /** The run paused and resumed once, as a user answering the question: the state the client could replay. */
    const resumedOnce = async () => {
      const { requestState } = (await prompt({})) as InputRequiredResult;
      const resumed = (await prompt({ inputResponses: answer, requestState })) as GetPromptResult;
      expect(resumed._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
      return requestState;
    };
    const replay = (requestState: string | undefined) => prompt({ inputResponses: answer, requestState }).catch((error: unknown) => error);
    return { calls, resumedOnce, replay };
  }

  test('after FLUSHALL the replay is refused as unavailable and add_task does not run again', async () => {
    const redis = await server();
    const guard = redisReplayGuard(await connect(KINDS[0], redis), { logger: quiet });
    const { calls, resumedOnce, replay } = await served(() => guard);
    const requestState = await resumedOnce();
    await redis.flushAll();
    expect(await replay(requestState)).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /^Prompt add_project_task: mcpflow replay guard: Redis lost the guard's keys .*refused rather than risk running its steps twice\.$/,
      ),
    });
    expect(calls).toEqual(['list_pages', 'add_task']);
  });

  test('after Redis and the server restart together, the replay is refused and add_task does not run again (a guard made per request)', async () => {
    const redis = await server();
    let client = await connect(KINDS[0], redis);
    // The worst case: a new guard for every request, so each pause is sealed by a guard that has not read Redis yet.
    const { calls, resumedOnce, replay } = await served(() => redisReplayGuard(client, { logger: quiet }));
    const requestState = await resumedOnce();
    await redis.restart();
    // The server restarts too: a new Redis client, and new guards, which find an empty Redis.
    client = await connect(KINDS[0], redis);
    expect(await replay(requestState)).toMatchObject({
      code: -32603,
      message: expect.stringMatching(
        /^Prompt add_project_task: mcpflow replay guard: Redis lost the guard's keys \(.*\) after this state was sealed, .*Start the run again without requestState\.$/,
      ),
    });
    expect(calls).toEqual(['list_pages', 'add_task']);
    // A run started after the restart pauses and resumes as ever.
    await resumedOnce();
    expect(calls).toEqual(['list_pages', 'add_task', 'list_pages', 'add_task']);
  });
});
