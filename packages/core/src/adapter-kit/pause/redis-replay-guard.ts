import { pausedRoundKey, type PausedRound, type ReplayGuard, type ReplayVerdict } from '../../engine/sealing/replay-guard';
import { ReplayGuardError } from '../../engine/sealing/replay-guard-error';
import { redisCommandSender, type RedisClientLike, type RedisCommandSender } from './redis-client';

/** Options of `redisReplayGuard`. */
export interface RedisReplayGuardOptions {
  /** Put before every key the guard writes, to keep its keys apart from others in the same database. Default `mcpflow:replay:`. */
  readonly prefix?: string;
  /** How long to wait for Redis before refusing the resume, in milliseconds. Default 2,000. */
  readonly timeoutMs?: number;
  /**
   * How far apart the clocks of the instances sharing the guard may be, in milliseconds: added to
   * each key's lifetime, so an instance whose clock runs behind still finds the round while it
   * considers the state valid. Default 30,000.
   */
  readonly clockSkewMs?: number;
}

const DEFAULT_PREFIX = 'mcpflow:replay:';
const DEFAULT_TIMEOUT_MS = 2_000;
const DEFAULT_CLOCK_SKEW_MS = 30_000;

/**
 * A replay guard shared by every instance using the same Redis (DESIGN §2.8 "Single use"): the
 * first resume of a round writes its key with `SET key 1 NX PX <ttl>`, which exactly one caller
 * wins, and the key expires with the state. Takes a node-redis client or cluster (`redis` 5.x or
 * 6.x) or an ioredis client or cluster, already connected; mcpflow depends on neither library.
 * It fails closed: when Redis errs, answers anything unexpected or does not answer within
 * `timeoutMs`, the resume is refused with a `ReplayGuardError` (problem `unavailable`).
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect();
 * const pause = { keys: [process.env.MCPFLOW_STATE_KEY!], replayGuard: redisReplayGuard(redis) };
 * ```
 */
export function redisReplayGuard(client: RedisClientLike, options: RedisReplayGuardOptions = {}): ReplayGuard {
  const send = redisCommandSender(client);
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const clockSkewMs = options.clockSkewMs ?? DEFAULT_CLOCK_SKEW_MS;
  if (typeof prefix !== 'string') throw new TypeError(`redisReplayGuard: prefix must be a string, not ${typeof prefix}.`);
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    throw new RangeError(`redisReplayGuard: timeoutMs must be a positive number of milliseconds, not ${timeoutMs}.`);
  if (!(clockSkewMs >= 0) || !Number.isFinite(clockSkewMs))
    throw new RangeError(`redisReplayGuard: clockSkewMs must be a number of milliseconds, 0 or more, not ${clockSkewMs}.`);
  return {
    async consume(round: PausedRound): Promise<ReplayVerdict> {
      const key = prefix + pausedRoundKey(round);
      // One millisecond more than the state has left: it still opens in its last millisecond.
      const lifetime = String(Math.ceil(round.ttlMs + clockSkewMs) + 1);
      const reply = await withinTimeout(send, key, ['SET', key, '1', 'NX', 'PX', lifetime], timeoutMs);
      if (reply === null) return 'replayed';
      if (reply === 'OK' || (Buffer.isBuffer(reply) && reply.toString() === 'OK')) return 'first';
      throw unavailable(`Redis answered SET NX with ${reply === undefined ? 'nothing' : typeof reply}, not OK or nil`);
    },
  };
}

async function withinTimeout(send: RedisCommandSender, key: string, command: readonly string[], timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unavailable(`Redis did not answer within ${timeoutMs} ms (redisReplayGuard timeoutMs)`)), timeoutMs);
  });
  try {
    // Through a promise, so a client that throws at once is handled as one that answers with an error.
    return await Promise.race([Promise.resolve().then(() => send(key, command)), late]);
  } catch (error) {
    throw error instanceof ReplayGuardError ? error : unavailable('Redis answered with an error', error);
  } finally {
    clearTimeout(timer);
  }
}

function unavailable(what: string, cause?: unknown): ReplayGuardError {
  return new ReplayGuardError(
    'unavailable',
    `mcpflow replay guard: ${what}, so whether this round was resumed before is unknown; the resume is refused rather than risk running its steps twice.`,
    cause === undefined ? undefined : { cause },
  );
}
