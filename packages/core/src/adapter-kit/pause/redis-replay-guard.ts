import { randomBytes } from 'node:crypto';
import { DEFAULT_STATE_TTL_SECONDS } from '../../engine';
import { pausedRoundKey, type PausedRound, type ReplayGuard, type ReplayVerdict } from '../../engine/sealing/replay-guard';
import { ReplayGuardError } from '../../engine/sealing/replay-guard-error';
import { debugLine, type WorkflowLogger } from '../telemetry/debug-log';
import { redisClientReady, redisCommandSender, type RedisClientLike, type RedisCommandSender } from './redis-client';
import { evictionWarning } from './redis-eviction-check';
import { CONSUME_SCRIPT, START_SCRIPT, epochSeenAt, scriptReply, type ScriptReply } from './redis-guard-scripts';

/** Options of `redisReplayGuard`. */
export interface RedisReplayGuardOptions {
  /** Put before every key the guard writes, to keep its keys apart from others in the same database. Default `mcpflow:replay:`. */
  readonly prefix?: string;
  /** How long to wait for Redis before refusing the resume, in milliseconds. Default 2,000. */
  readonly timeoutMs?: number;
  /**
   * How far apart the clocks of the instances sharing the guard may be, in milliseconds: added to
   * each round's lifetime, so an instance whose clock runs behind still finds the round while it
   * considers the state valid, and to the wait after Redis lost the guard's keys. Default 30,000.
   */
  readonly clockSkewMs?: number;
  /**
   * The longest a state lives, in seconds: the `ttlSeconds` of the `pause` option, which the guard
   * cannot see. After Redis lost the guard's keys, resumes are refused for this long (plus
   * `clockSkewMs`): until every state resumed before the loss has expired. A state with more time
   * left is refused, naming this option. Default 600, the `pause` default.
   */
  readonly stateTtlSeconds?: number;
  /**
   * Whether a restart of Redis (or a failover) keeps every write the guard made: AOF with
   * `appendfsync always`, and no failover to a replica that may lag. Default `false`: the guard
   * cannot tell a clean restart from a crash that rolled its latest rounds back (an RDB snapshot,
   * AOF `everysec`, a lagging replica), so it takes every restart as a loss of its keys (states
   * sealed before are refused). Set it only when Redis is configured so.
   */
  readonly survivesRestarts?: boolean;
  /** Where the guard's lines go (its start check, a loss of its keys): as the server's `logger`; default stderr when `DEBUG` names mcpflow. */
  readonly logger?: WorkflowLogger;
}

const DEFAULT_PREFIX = 'mcpflow:replay:';
const LOSS_CAUSES = 'restarted, flushed or evicted';
const LOSS = `Redis lost the guard's keys (${LOSS_CAUSES})`;
const DEFAULT_TIMEOUT_MS = 2_000;
const DEFAULT_CLOCK_SKEW_MS = 30_000;
/** How long an estimate of Redis's clock is kept when later ones are lower: clocks drift, and are set. */
const OFFSET_LIFETIME_MS = 60_000;
/** Rounds are spread over this many sorted sets, each in a hash slot of its own on a cluster, each with its own epoch. */
const BUCKETS = 16;

/** What the guard knows of one bucket: the epoch it holds, and until when (Redis's clock) resumes in it are refused. */
interface Bucket {
  epoch: string;
  refusedUntil: number;
}

/**
 * A replay guard shared by every instance using the same Redis (DESIGN §2.8 "Single use"): the
 * first resume of a round adds it to a sorted set, which exactly one caller wins, and the round is
 * forgotten once its state has expired. Takes a node-redis client or cluster (`redis` 5.x or 6.x)
 * or an ioredis client or cluster, already connected; mcpflow depends on neither library.
 *
 * It fails closed: when Redis errs, answers anything unexpected, does not answer within
 * `timeoutMs` or the client is not connected, the resume is refused with a `ReplayGuardError`
 * (problem `unavailable`), and a command that arrives after that consumes nothing. It knows when
 * Redis forgot: each set holds an epoch, written when the guard starts and checked atomically with
 * every resume, and each state is sealed with its set's epoch (`generation`). Once the epoch is gone
 * (a restart of Redis unless `survivesRestarts`, `FLUSHALL`, eviction — even with every instance
 * restarted), no state sealed before resumes again, while states sealed since resume at once; a state that names
 * no epoch is refused as `unavailable` until `stateTtlSeconds` + `clockSkewMs` have passed since the
 * loss was seen — a window of unavailability, never a replay. At its start it checks Redis's
 * `maxmemory-policy` and logs a line when it is not `noeviction`.
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
  const stateTtlSeconds = options.stateTtlSeconds ?? DEFAULT_STATE_TTL_SECONDS;
  if (typeof prefix !== 'string') throw new TypeError(`redisReplayGuard: prefix must be a string, not ${typeof prefix}.`);
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    throw new RangeError(`redisReplayGuard: timeoutMs must be a positive number of milliseconds, not ${timeoutMs}.`);
  if (!(clockSkewMs >= 0) || !Number.isFinite(clockSkewMs))
    throw new RangeError(`redisReplayGuard: clockSkewMs must be a number of milliseconds, 0 or more, not ${clockSkewMs}.`);
  if (!(stateTtlSeconds > 0) || !Number.isFinite(stateTtlSeconds))
    throw new RangeError(`redisReplayGuard: stateTtlSeconds must be a positive number of seconds, not ${stateTtlSeconds}.`);
  const guard = new RedisGuard(client, send, {
    prefix,
    timeoutMs,
    clockSkewMs,
    windowMs: stateTtlSeconds * 1000 + clockSkewMs,
    trusted: options.survivesRestarts === true ? '1' : '0',
    log: debugLine(options.logger, process.env.DEBUG),
  });
  return { consume: (round) => guard.consume(round), generation: (runId) => guard.generation(runId) };
}

interface GuardSettings {
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly clockSkewMs: number;
  /** How long resumes are refused after a loss is seen, and the longest time a state may have left. */
  readonly windowMs: number;
  /** '1' when a restart of Redis is not a loss (`survivesRestarts`), else '0': passed to the scripts. */
  readonly trusted: '0' | '1';
  readonly log: ((line: string) => void) | undefined;
}

class RedisGuard {
  private starting?: Promise<Bucket[]>;
  /** The buckets, once started: what `generation` reads. */
  private buckets?: Bucket[];
  /**
   * Redis's clock minus this process's: the largest estimate of the last minute. Each reply gives
   * one that is a little less than the truth (the reply took time to arrive, longer when the event
   * loop was busy), so a deadline computed with it falls before the guard stops waiting, never after.
   */
  private offset = { ms: 0, at: -Infinity };
  private policyChecked = false;

  constructor(
    private readonly client: RedisClientLike,
    private readonly send: RedisCommandSender,
    private readonly settings: GuardSettings,
  ) {
    // Adopt the epochs now, so a loss before the first resume is seen too; failing here is retried then.
    if (redisClientReady(client)) this.started().catch(() => undefined);
  }

  async consume(round: PausedRound): Promise<ReplayVerdict> {
    const member = pausedRoundKey(round);
    const { windowMs } = this.settings;
    if (round.ttlMs > windowMs) {
      throw unavailable(
        `this state has ${Math.ceil(round.ttlMs / 1000)} s left, more than redisReplayGuard's stateTtlSeconds + clockSkewMs allows ` +
          `(${windowMs / 1000} s): set stateTtlSeconds to the pause option's ttlSeconds, or a loss of Redis's keys would not be waited out`,
      );
    }
    const index = bucketOf(round.runId);
    const bucket = (await this.started())[index];
    const generation = typeof round.generation === 'string' ? round.generation : undefined;
    let reply = await this.attempt(index, bucket, member, round.ttlMs, generation);
    // Sealed under the epoch another instance wrote after a loss this one had not seen yet: adopted now, so once more.
    if (reply.verdict === 'lost' && generation === reply.epoch) reply = await this.attempt(index, bucket, member, round.ttlMs, generation);
    switch (reply.verdict) {
      case 'first':
      case 'replayed':
        return reply.verdict;
      case 'lost':
        throw this.lost(bucket);
      case 'stale':
        throw new ReplayGuardError(
          'unavailable',
          `mcpflow replay guard: ${LOSS} after this state was sealed, ` +
            'so whether its round was resumed before is unknown; the resume is refused rather than risk running its steps twice. ' +
            'Start the run again without requestState.',
        );
      default:
        throw unavailable(
          `Redis ran the guard's command after it had stopped waiting (timeoutMs ${this.settings.timeoutMs}), so it consumed nothing`,
        );
    }
  }

  /**
   * The bucket's epoch for `runId`'s rounds, sealed into each state of the run (`ReplayGuard.generation`):
   * at once when the guard has started, else when its start answers (each command within
   * `timeoutMs`); undefined when Redis cannot say now — the state then names no epoch, and a resume
   * of it waits out a loss.
   */
  generation(runId: string): string | Promise<string | undefined> | undefined {
    if (this.buckets) return this.buckets[bucketOf(runId)].epoch;
    return this.started().then(
      (buckets) => buckets[bucketOf(runId)].epoch,
      () => undefined,
    );
  }

  /** One run of the consume script on bucket `index`; a loss it reports is adopted (the new epoch, and the wait). */
  private async attempt(
    index: number,
    bucket: Bucket,
    member: string,
    ttlMs: number,
    generation: string | undefined,
  ): Promise<ScriptReply> {
    const { windowMs, clockSkewMs, timeoutMs } = this.settings;
    // A state sealed under the bucket's present epoch was sealed after every loss this guard knows of: it waits for none.
    if (generation !== bucket.epoch && this.redisNow() < bucket.refusedUntil) throw this.lost(bucket);
    const lifetime = Math.ceil(ttlMs + clockSkewMs) + 1; // one millisecond more: the state still opens in its last one
    // A margin before the guard stops waiting: its timer may fire a millisecond early and both clocks
    // count whole milliseconds, so a command Redis runs just as the guard gives up must already be late.
    const deadline = Math.floor(this.redisNow() + timeoutMs - deadlineMargin(timeoutMs));
    const args = [bucket.epoch, freshEpoch(), member, String(lifetime), String(deadline), generation ?? '', this.settings.trusted];
    const reply = await this.run(this.keyOf(index), CONSUME_SCRIPT, args);
    if (reply.verdict === 'lost') {
      bucket.epoch = reply.epoch;
      bucket.refusedUntil = reply.now + windowMs;
      this.settings.log?.(
        `mcpflow replay guard: Redis lost the guard's keys (${this.keyOf(index)}: ${LOSS_CAUSES}); ` +
          `resumes in it of states sealed before are refused for ${windowMs / 1000} s (stateTtlSeconds + clockSkewMs)`,
      );
    }
    return reply;
  }

  /** The buckets' epochs, adopted or written once; a start that failed is tried again by the next resume. */
  private started(): Promise<Bucket[]> {
    this.starting ??= this.start().then(
      (buckets) => (this.buckets = buckets),
      (error: unknown) => {
        this.starting = undefined;
        throw error;
      },
    );
    return this.starting;
  }

  private async start(): Promise<Bucket[]> {
    const epoch = freshEpoch();
    const replies = await Promise.all(
      Array.from({ length: BUCKETS }, (_, index) => this.run(this.keyOf(index), START_SCRIPT, [epoch, this.settings.trusted])),
    );
    if (!this.policyChecked) {
      const policy = await withinTimeout(this.send, this.keyOf(0), ['CONFIG', 'GET', 'maxmemory-policy'], this.settings.timeoutMs).then(
        (reply) => evictionWarning(reply),
        (error: unknown) => evictionWarning(undefined, error),
      );
      this.policyChecked = true;
      if (policy) this.settings.log?.(policy);
    }
    return replies.map((reply) => {
      const seen = epochSeenAt(reply.epoch);
      return { epoch: reply.epoch, refusedUntil: seen === 0 ? 0 : seen + this.settings.windowMs };
    });
  }

  /** Runs a script on one bucket's key, once the client is ready, and reads its reply. */
  private async run(key: string, script: string, args: readonly string[]): Promise<ScriptReply> {
    if (!redisClientReady(this.client)) {
      throw unavailable(
        'the Redis client is not connected (a command sent now would wait in its offline queue and could arrive after the guard gave up)',
      );
    }
    const sent = Date.now();
    const answer = await withinTimeout(this.send, key, ['EVAL', script, '1', key, ...args], this.settings.timeoutMs);
    const reply = scriptReply(answer);
    if (!reply) throw unavailable(`Redis answered the guard's script with ${describeReply(answer)}, not its verdict`);
    const received = Date.now();
    const estimate = reply.now - received;
    if (received - sent <= this.settings.timeoutMs && (estimate > this.offset.ms || received - this.offset.at > OFFSET_LIFETIME_MS)) {
      this.offset = { ms: estimate, at: received };
    }
    return reply;
  }

  private redisNow(): number {
    return Date.now() + this.offset.ms;
  }

  private keyOf(bucket: number): string {
    return `${this.settings.prefix}rounds{${bucket}}`;
  }

  private lost(bucket: Bucket): ReplayGuardError {
    const left = Math.max(1, Math.ceil((bucket.refusedUntil - this.redisNow()) / 1000));
    return unavailable(`${LOSS}, and a state resumed before that may still be open for ${left} s more`);
  }
}

/** Which bucket a run's rounds go to: every round of a run in one. */
function bucketOf(runId: string): number {
  let hash = 0;
  for (let index = 0; index < runId.length; index += 1) hash = (hash * 31 + runId.charCodeAt(index)) >>> 0;
  return hash % BUCKETS;
}

function freshEpoch(): string {
  return `epoch:${randomBytes(12).toString('base64url')}`;
}

function describeReply(reply: unknown): string {
  if (reply === undefined || reply === null) return 'nothing';
  return Array.isArray(reply) ? `an array of ${reply.length}` : typeof reply;
}

/** How long before `timeoutMs` ends a command counts as late in Redis: a tenth of it, between 1 and 50 ms. */
function deadlineMargin(timeoutMs: number): number {
  return Math.min(50, Math.max(1, timeoutMs / 10));
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
