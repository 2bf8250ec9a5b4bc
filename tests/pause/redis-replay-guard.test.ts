import { randomBytes } from 'node:crypto';
import { createClient } from 'redis';
import { redisReplayGuard, type RedisReplayGuardOptions } from '../../packages/core/src/adapter-kit/pause/redis-replay-guard';
import { ReplayGuardError } from '../../packages/core/src/engine/sealing/replay-guard-error';
import type { RedisClientLike } from '../../packages/core/src/adapter-kit/pause/redis-client';
import { REDIS_CLIENT_KINDS, describeIfRedis, type RedisLogin } from '../helpers/redis-clients';
import { redisServerInstalled, startRedisServer, type RedisServer } from '../helpers/redis-server';

/**
 * `redisReplayGuard` against a real `redis-server` (started here on a free loopback port, alone
 * and as a one-node cluster), through each client it accepts: node-redis 6 and 5, ioredis, and
 * their cluster clients. In CI this file fails rather than skips when `redis-server` is missing.
 */

const KINDS = REDIS_CLIENT_KINDS;
const describeWithRedis = describeIfRedis();
const available = redisServerInstalled();

const servers: { standalone?: RedisServer; cluster?: RedisServer } = {};
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  if (!available) return;
  [servers.standalone, servers.cluster] = await Promise.all([startRedisServer(), startRedisServer({ cluster: true })]);
  // A user that may do anything but write a round (SET, or EVAL the guard's script): its guard gets an error reply from Redis.
  for (const server of [servers.standalone, servers.cluster]) {
    const admin = createClient({ url: server.url });
    await admin.connect();
    await admin.sendCommand(['ACL', 'SETUSER', 'noset', 'on', '>noset-password', '~*', '&*', '+@all', '-set', '-eval']);
    await admin.close();
  }
}, 60_000);
afterAll(async () => {
  await Promise.all([servers.standalone?.stop(), servers.cluster?.stop()]);
});
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const run = () => `run-${randomBytes(9).toString('base64url')}`;

describeWithRedis.each(KINDS)('redisReplayGuard with a $label', (kind) => {
  const serverOf = () => (kind.cluster ? servers.cluster! : servers.standalone!);
  async function connected(login?: RedisLogin): Promise<RedisClientLike> {
    const connection = await kind.connect(serverOf(), login);
    closers.push(() => connection.close());
    return connection.client;
  }
  const guardOn = async (options?: RedisReplayGuardOptions) => redisReplayGuard(await connected(), options);

  test('the first resume of a round consumes it; a replay of it is told apart, other rounds and runs are not', async () => {
    const guard = await guardOn();
    const [a, b] = [run(), run()];
    expect(await guard.consume({ runId: a, round: 1, ttlMs: 60_000 })).toBe('first');
    expect(await guard.consume({ runId: a, round: 1, ttlMs: 60_000 })).toBe('replayed');
    expect(await guard.consume({ runId: a, round: 2, ttlMs: 60_000 })).toBe('first');
    expect(await guard.consume({ runId: b, round: 1, ttlMs: 60_000 })).toBe('first');
  });

  test('two instances, each with its own connection, resuming one round at once: exactly one is first', async () => {
    const instances = [await guardOn(), await guardOn()];
    const id = run();
    const verdicts = await Promise.all(
      Array.from({ length: 40 }, (_, index) => instances[index % 2].consume({ runId: id, round: 3, ttlMs: 60_000 })),
    );
    expect(verdicts.filter((verdict) => verdict === 'first')).toHaveLength(1);
  });

  test('the round is stored under the prefix for as long as the state lives, plus the clock skew allowance, then forgotten', async () => {
    const checker = createClient({ url: serverOf().url });
    await checker.connect();
    closers.push(() => checker.close());
    const id = run();
    const guard = await guardOn({ prefix: 'tenant-a:replay:', clockSkewMs: 5_000 });
    await guard.consume({ runId: id, round: 1, ttlMs: 60_000 });
    // The guard's sorted sets (one per bucket): each round a member, scored with when Redis may forget it.
    const [seconds, micros] = (await checker.sendCommand(['TIME'])) as string[];
    const now = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const sets = (await checker.sendCommand(['KEYS', 'tenant-a:replay:*'])) as string[];
    const scores = await Promise.all(sets.map((key) => checker.sendCommand(['ZSCORE', key, `${id}:1`])));
    const held = scores.filter((score) => score !== null).map(Number);
    expect(held).toHaveLength(1);
    expect(held[0] - now).toBeGreaterThan(60_000);
    expect(held[0] - now).toBeLessThanOrEqual(65_001);
    for (const key of (await checker.sendCommand(['KEYS', 'mcpflow:replay:*'])) as string[]) {
      expect(await checker.sendCommand(['ZSCORE', key, `${id}:1`])).toBeNull();
    }

    const brief = await guardOn({ clockSkewMs: 0 });
    expect(await brief.consume({ runId: id, round: 9, ttlMs: 50 })).toBe('first');
    expect(await brief.consume({ runId: id, round: 9, ttlMs: 50 })).toBe('replayed');
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await brief.consume({ runId: id, round: 9, ttlMs: 50 })).toBe('first');
  });

  test('an error reply from Redis refuses the resume (fails closed), with the error as the cause and not in the message', async () => {
    const guard = redisReplayGuard(await connected({ username: 'noset', password: 'noset-password' }));
    const error = await guard.consume({ runId: run(), round: 1, ttlMs: 60_000 }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ReplayGuardError);
    expect(error).toMatchObject({
      problem: 'unavailable',
      message: expect.stringMatching(
        /^mcpflow replay guard: Redis answered with an error, so whether this round was resumed before is unknown/,
      ),
      cause: expect.objectContaining({ message: expect.stringMatching(/NOPERM/) }),
    });
    expect((error as Error).message).not.toMatch(/NOPERM|noset/);
  });
});

describeWithRedis.each(KINDS.filter((kind) => !kind.cluster))('redisReplayGuard with a $label whose Redis went away', (kind) => {
  test('refuses the resume within timeoutMs (fails closed) and never answers first', async () => {
    const doomed = await startRedisServer();
    const connection = await kind.connect(doomed);
    closers.push(() => connection.close());
    const guard = redisReplayGuard(connection.client, { timeoutMs: 500 });
    expect(await guard.consume({ runId: run(), round: 1, ttlMs: 60_000 })).toBe('first');
    await doomed.stop();
    const attempt = guard.consume({ runId: run(), round: 1, ttlMs: 60_000 });
    await expect(attempt).rejects.toBeInstanceOf(ReplayGuardError);
    await expect(attempt).rejects.toMatchObject({ problem: 'unavailable' });
  });
});

test('a value that is not a Redis client is refused when the guard is built, naming the clients it takes', () => {
  expect(() => redisReplayGuard({} as RedisClientLike)).toThrow(
    /redisReplayGuard\(client\): expected a connected Redis client — from node-redis .*createClient\(\).*createCluster\(\).* or from ioredis .* not an object without call\(\) or sendCommand\(\)/,
  );
  expect(() => redisReplayGuard(new Map() as unknown as RedisClientLike)).toThrow(/not an instance of Map\.$/);
});
