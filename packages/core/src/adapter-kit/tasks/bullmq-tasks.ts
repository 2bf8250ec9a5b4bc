import type { ConnectionOptions, Job, Queue, Worker } from 'bullmq';
import { debugLine } from '../telemetry/debug-log';
import { applyChange } from './memory-tasks';
import {
  isTerminalTaskStatus,
  type NewTask,
  type TaskChange,
  type TaskChangeResult,
  type TaskRecord,
  type TaskRoundRunner,
  type TaskStore,
} from './task-store';
import { taskStoreOptions, tooManyClientTasks, tooManyTasks, type TaskStoreOptions } from './task-store-options';

/** The options of {@link bullmqTasks}: `maxTasks` and `maxTasksPerClient` (shared by every instance on the prefix), `ttlMs` and `pollIntervalMs` as for `memoryTasks()`, and Redis's. */
export interface BullmqTasksOptions extends TaskStoreOptions {
  /** Where Redis is: BullMQ's `connection` (ioredis options such as `{ host, port }`, or an ioredis instance). */
  connection: ConnectionOptions;
  /** The prefix of every Redis key the store writes (tasks and BullMQ's queue). Default `'mcpflow'`. */
  prefix?: string;
  /** Rounds this instance runs at once. Default `16`. */
  concurrency?: number;
  /**
   * How long a round's lock holds without renewal (BullMQ's `lockDuration`; its worker renews it
   * while the round runs): once an instance dies, its rounds are taken over within about this
   * long plus `stalledIntervalMs`. Default `30000`.
   */
  lockDurationMs?: number;
  /** How often each worker looks for rounds whose instance died (BullMQ's `stalledInterval`). Default `30000`. */
  stalledIntervalMs?: number;
  /** How long `start` waits for Redis before it fails naming the fix. Default `5000`. */
  connectTimeoutMs?: number;
}

/** Redis's answer to a compare-and-set: `ok`, or the task as it is (its JSON), or nothing when it is gone. */
const COMPARE_AND_SET = `
local raw = redis.call('GET', KEYS[1])
if not raw then return false end
local record = cjson.decode(raw)
if record.version ~= tonumber(ARGV[1]) then return raw end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
return 'ok'
`;

/**
 * Creates a task unless `maxTasks` tasks are kept, or its client keeps `maxTasksPerClient`: each set
 * of live task refs (scored by expiry) loses those expired, then counts; `full`, `client-full`, or
 * the task stored and counted, atomically for every instance. KEYS: the task, the set, the client's
 * set. ARGV: now, maxTasks, the task's JSON, ttlMs, its expiry, its ref, maxTasksPerClient ('' for a task of no known client).
 */
const CREATE_BOUNDED = `
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 'full' end
if ARGV[7] ~= '' then
  redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[1])
  if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[7]) then return 'client-full' end
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4], 'NX')
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 'ok'
`;

interface RedisLike {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'PX', ms: number, flag: 'NX'): Promise<'OK' | null>;
  del(key: string): Promise<number>;
  zrem(key: string, member: string): Promise<number>;
  eval(script: string, keys: number, ...args: (string | number)[]): Promise<unknown>;
  publish(channel: string, message: string): Promise<number>;
  readonly status: string;
  once(event: 'ready', listener: () => void): unknown;
  disconnect(): void;
  quit(): Promise<unknown>;
  duplicate(): RedisLike & {
    subscribe(channel: string): Promise<unknown>;
    on(event: 'message', listener: (channel: string, message: string) => void): void;
    quit(): Promise<unknown>;
  };
}

/** A round this instance runs: its job (and lock token), and what aborts its step. */
interface InFlightRound {
  readonly controller: AbortController;
  readonly job: Job<{ taskId: string }>;
  readonly token?: string;
  handedOver?: boolean;
}

/** BullMQ's queue name for rounds. */
const ROUNDS = 'rounds';

/**
 * Tasks shared by several instances, on BullMQ 6.x over Redis (DESIGN §2.13): any instance answers
 * `tasks/get`, `tasks/update` and `tasks/cancel` for any task, and a task's rounds run as BullMQ
 * jobs on any instance's worker. Each completed step is checkpointed in the task; when the instance
 * running a round dies, BullMQ's stalled-job recovery hands the round to another instance, which
 * goes on from the last checkpoint (a completed step's tool is never called again). What Redis holds
 * besides ids, statuses, times and the tool's name is sealed with the server's `pause.keys`, which a
 * server with this store requires. `bullmq` is an optional peer dependency: install it.
 *
 * @example
 * ```ts
 * const tasks = bullmqTasks({ connection: { host: '127.0.0.1', port: 6379 } });
 * new WorkflowServer(info, { tasks, pause: { keys: [process.env.MCPFLOW_KEY!] } }).use(NightlyBuild);
 * ```
 */
export function bullmqTasks(options: BullmqTasksOptions): TaskStore {
  return new BullmqTaskStore(options);
}

class BullmqTaskStore implements TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly checkpoints = true;
  private readonly maxTasks: number;
  private readonly maxTasksPerClient: number;
  private readonly prefix: string;
  private opened?: Promise<{ queue: Queue; redis: RedisLike }>;
  private worker?: Worker;
  private subscriber?: ReturnType<RedisLike['duplicate']>;
  /** The rounds this instance runs, by task id: aborted on cancel (from any instance), handed back on close. */
  private readonly rounds = new Map<string, InFlightRound>();
  private readonly log = debugLine(undefined, process.env.DEBUG);

  constructor(private readonly options: BullmqTasksOptions) {
    this.prefix = options.prefix ?? 'mcpflow';
    ({
      maxTasks: this.maxTasks,
      maxTasksPerClient: this.maxTasksPerClient,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    } = taskStoreOptions('bullmqTasks', options));
  }

  async start(runner: TaskRoundRunner): Promise<void> {
    const { queue, redis } = await this.open();
    const { Worker, DelayedError } = await loadBullmq();
    this.subscriber = redis.duplicate();
    this.subscriber.on('message', (_channel, taskId) => this.rounds.get(taskId)?.controller.abort());
    await connected(this.subscriber);
    await this.subscriber.subscribe(this.cancelChannel);
    this.worker = new Worker(
      ROUNDS,
      async (job: Job<{ taskId: string }>, token?: string) => {
        const { taskId } = job.data;
        if (job.attemptsStarted > 1 || job.stalledCounter > 0) this.log?.(`mcpflow task round taken over: ${taskId.slice(0, 8)}`);
        const round: InFlightRound = { controller: new AbortController(), job, token };
        this.rounds.set(taskId, round);
        try {
          await runner.runRound(taskId, round.controller.signal);
        } finally {
          this.rounds.delete(taskId);
        }
        // Handed back to the queue as this instance closed: BullMQ must not mark it completed.
        if (round.handedOver) throw new DelayedError();
      },
      {
        connection: this.options.connection,
        prefix: this.prefix,
        concurrency: this.options.concurrency ?? 16,
        lockDuration: this.options.lockDurationMs ?? 30_000,
        stalledInterval: this.options.stalledIntervalMs ?? 30_000,
        maxStalledCount: 100,
      },
    );
    this.worker.on('error', () => {});
    await queue.waitUntilReady();
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const record: TaskRecord = { ...task, status: 'working', version: 1, lastUpdatedAt: task.createdAt };
    const expiry = task.createdAt + task.ttlMs;
    const perClient = task.client === undefined ? '' : this.maxTasksPerClient;
    const args = [Date.now(), this.maxTasks, JSON.stringify(record), task.ttlMs, expiry, task.taskId, perClient];
    const clientKey = `${this.liveTasksKey}:${task.client ?? ''}`;
    const created = await this.command(({ redis }) =>
      redis.eval(CREATE_BOUNDED, 3, this.key(task.taskId), this.liveTasksKey, clientKey, ...args),
    );
    if (created === 'full') throw tooManyTasks('bullmqTasks', this.maxTasks, `this store (prefix '${this.prefix}', every instance)`);
    if (created === 'client-full') throw tooManyClientTasks('bullmqTasks', this.maxTasksPerClient);
    return record;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const raw = await this.command(({ redis }) => redis.get(this.key(taskId)));
    return raw === null ? undefined : (JSON.parse(raw) as TaskRecord);
  }

  async update(taskId: string, expectedVersion: number, change: TaskChange): Promise<TaskChangeResult> {
    const current = await this.get(taskId);
    if (!current || current.version !== expectedVersion || isTerminalTaskStatus(current.status)) return { ok: false, task: current };
    const next = applyChange(current, change);
    const answer = await this.command(({ redis }) =>
      redis.eval(COMPARE_AND_SET, 1, this.key(taskId), expectedVersion, JSON.stringify(next)),
    );
    if (answer === 'ok') return { ok: true, task: next };
    return { ok: false, task: typeof answer === 'string' ? (JSON.parse(answer) as TaskRecord) : undefined };
  }

  async cancel(taskId: string): Promise<TaskRecord | undefined> {
    for (;;) {
      const current = await this.get(taskId);
      if (!current || isTerminalTaskStatus(current.status)) return current;
      const changed = await this.update(taskId, current.version, {
        status: 'cancelled',
        state: null,
        checkpoint: null,
        inputRequests: null,
        answers: null,
      });
      if (changed.ok) {
        await this.command(({ redis }) => redis.publish(this.cancelChannel, taskId));
        return changed.task;
      }
    }
  }

  async schedule(taskId: string): Promise<void> {
    await this.command(({ queue }) => queue.add('round', { taskId }, { removeOnComplete: true, removeOnFail: true }));
  }

  async expired(): Promise<readonly string[]> {
    // Redis forgets each task at the end of its TTL by itself (the key's PX).
    return [];
  }

  async remove(taskId: string): Promise<void> {
    await this.command(async ({ redis }) => {
      await redis.del(this.key(taskId));
      await redis.zrem(this.liveTasksKey, taskId);
    });
    this.rounds.get(taskId)?.controller.abort();
  }

  /** Stops taking rounds and hands those in flight back to the queue, for another instance. */
  async close(): Promise<void> {
    // Each round in flight goes back to the queue at once (not after its lock expires), for
    // another instance's worker to go on from its last checkpoint; a step still running here is aborted.
    // First no new round here, and the active ones are not waited for (a handler may ignore its
    // signal): the worker stops; the queue's own connection hands each round back, with its lock's token.
    await this.worker?.close(true);
    const opened = await this.opened?.catch(() => undefined);
    const { Job } = await loadBullmq();
    const handing = [...this.rounds].map(async ([taskId, round]) => {
      round.handedOver = true;
      round.controller.abort();
      if (!opened || (await this.cancelled(taskId))) return;
      const job = await Job.fromId(opened.queue, round.job.id!);
      await job?.moveToDelayed(Date.now(), round.token).catch(() => undefined);
      this.log?.(`mcpflow task round handed over: ${taskId.slice(0, 8)}`);
    });
    await Promise.all(handing);
    await this.subscriber?.quit().catch(() => undefined);
    await opened?.queue.close();
    await opened?.redis.quit().catch(() => undefined);
  }

  private get cancelChannel(): string {
    return `${this.prefix}:tasks:cancel`;
  }

  /** The ids of the tasks kept, scored by when each expires: what `maxTasks` counts. */
  private get liveTasksKey(): string {
    return `${this.prefix}:tasks:live`;
  }

  private key(taskId: string): string {
    return `${this.prefix}:task:${taskId}`;
  }

  private async cancelled(taskId: string): Promise<boolean> {
    return (await this.get(taskId))?.status === 'cancelled';
  }

  /**
   * A command on Redis; Redis away mid-run (it answered once) → an error that says so and what to
   * do, at once: ioredis fails the command rather than queue it. The tasks stay in Redis.
   */
  private async command<T>(run: (opened: { queue: Queue; redis: RedisLike }) => Promise<T>): Promise<T> {
    const opened = await this.open();
    try {
      return await run(opened);
    } catch (error) {
      throw new Error(
        `mcpflow bullmqTasks: Redis is unreachable (${(error as Error).message}). ` +
          'The tasks are kept in Redis, not lost: retry once Redis is back (this server goes on serving what does not need it).',
        { cause: error },
      );
    }
  }

  /** BullMQ's queue and a Redis connection for the task records, once; Redis unreachable → an error that names the fix. */
  private open(): Promise<{ queue: Queue; redis: RedisLike }> {
    this.opened ??= (async () => {
      const { Queue } = await loadBullmq();
      const timeoutMs = this.options.connectTimeoutMs ?? 5000;
      const redis = await recordsConnection(this.options.connection);
      const queue = new Queue(ROUNDS, { connection: this.options.connection, prefix: this.prefix });
      queue.on('error', () => {});
      let timer: NodeJS.Timeout | undefined;
      try {
        const answered = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('no answer')), timeoutMs);
        });
        await Promise.race([Promise.all([connected(redis), queue.waitUntilReady()]), answered]);
        return { queue, redis };
      } catch (error) {
        redis.disconnect();
        await queue.close().catch(() => undefined);
        throw new Error(
          `mcpflow bullmqTasks: Redis did not answer within ${timeoutMs} ms (${(error as Error).message}). ` +
            'Fix: start Redis, or pass bullmqTasks({ connection: { host, port } }) naming a reachable one.',
        );
      } finally {
        clearTimeout(timer);
      }
    })();
    return this.opened;
  }
}

/** Resolves once the connection is ready (commands fail at once, not queued, while it is not). */
function connected(redis: RedisLike): Promise<void> {
  return redis.status === 'ready' ? Promise.resolve() : new Promise((resolve) => redis.once('ready', resolve));
}

/**
 * The connection the task records go through (ioredis, which BullMQ's Redis backend runs on): a
 * command while Redis is away fails at once, so a request gets an error rather than waiting.
 */
async function recordsConnection(connection: ConnectionOptions): Promise<RedisLike> {
  if (typeof (connection as Partial<RedisLike>).duplicate === 'function') return (connection as unknown as RedisLike).duplicate();
  const { Redis } = await import('ioredis');
  return new Redis({
    ...(connection as object),
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
  }) as unknown as RedisLike;
}

async function loadBullmq(): Promise<typeof import('bullmq')> {
  try {
    return await import('bullmq');
  } catch (error) {
    throw new Error('mcpflow bullmqTasks needs the bullmq package (6.x). Fix: npm install bullmq', { cause: error });
  }
}
