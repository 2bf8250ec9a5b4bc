import type { ConnectionOptions, Job, Queue, Worker } from 'bullmq';
import { debugLine } from '../telemetry/debug-log';
import { loadBullmq } from './bullmq-packages';
import {
  CANCEL_TASK,
  CHECKPOINT_FIELD,
  CREATE_TASK,
  callOfParts,
  callPartsKey,
  FENCE_ROUND,
  LARGE_CALL_CHARACTERS,
  UPDATE_TASK,
  VIEW_FIELDS,
  changeArguments,
  newTaskFields,
  recordOfHash,
  storedValue,
  textOfHash,
  viewOfFields,
} from './redis-task-records';
import type {
  FenceResult,
  NewTask,
  RoundChange,
  TaskChange,
  TaskChangeResult,
  TaskRecord,
  TaskRoundRunner,
  TaskStore,
  TaskView,
} from './task-store';
import { storedBytes, taskStoreOptions, tooLargeTask, tooManyClientTasks, tooManyTasks, type TaskStoreOptions } from './task-store-options';

/** The options of {@link bullmqTasks}: `maxTasks` and `maxTasksPerClient` (shared by every instance on the prefix), `ttlMs`, `pollIntervalMs` and `maxTaskBytes` as for `memoryTasks()`, and Redis's. */
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
   * long plus two `stalledIntervalMs` (BullMQ marks a round at one check and moves it at a later
   * one, once its lock is gone). Default `30000`: a takeover 40–60 s after a `kill -9` (measured,
   * BENCHMARKS.md `tasks-takeover`).
   */
  lockDurationMs?: number;
  /**
   * How often each worker looks for rounds whose instance died (BullMQ's `stalledInterval`).
   * Default `lockDurationMs`, so a shorter lock gives a quicker takeover without a second option.
   */
  stalledIntervalMs?: number;
  /** How long `start` waits for Redis before it fails naming the fix. Default `5000`. */
  connectTimeoutMs?: number;
}

/** What the store uses of an ioredis connection (sealed values go and come as bytes: the `…Buffer` commands). */
interface RedisLike {
  hgetallBuffer(key: string): Promise<Record<string, Buffer>>;
  hmgetBuffer(key: string, ...fields: string[]): Promise<(Buffer | null)[]>;
  hgetBuffer(key: string, field: string): Promise<Buffer | null>;
  hset(key: string, field: string, value: Buffer): Promise<number>;
  del(...keys: string[]): Promise<number>;
  zrem(key: string, member: string): Promise<number>;
  multi(): { hset(key: string, field: string, value: Buffer): { pexpire(key: string, ms: number): { exec(): Promise<unknown> } } };
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
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
  readonly taskId: string;
  readonly controller: AbortController;
  readonly job: Job<{ taskId: string }>;
  readonly token?: string;
  handedOver?: boolean;
  /** Its fence failed for want of its lock (lapsed, taken, or Redis out of reach): the round goes back to the queue, not to `completed`. */
  lost?: boolean;
}

/** The Redis commands of the task records (ioredis's `defineCommand`: each script sent once, then run by its digest). */
interface TaskCommands {
  mcpflowCreateTask(...keysAndArgs: (string | number | Buffer)[]): Promise<string>;
  mcpflowUpdateTaskBuffer(...keysAndArgs: (string | number | Buffer)[]): Promise<(Buffer | null)[]>;
  mcpflowCancelTaskBuffer(...keysAndArgs: (string | number)[]): Promise<(Buffer | null)[]>;
  mcpflowFenceRound(...keysAndArgs: (string | number | Buffer)[]): Promise<string | number>;
}

type Records = RedisLike & TaskCommands;

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
 * Rounds are fenced (DESIGN §2.13): before each step and with each checkpoint a round proves, in
 * one Lua script, that its BullMQ lock still holds its token and that the task is `working` at its
 * version; once it cannot (its lock lapsed or was renewed by no one, another instance took it over,
 * the task was cancelled or expired, Redis is out of reach) its step in flight is aborted and it
 * ends without writing — back to the queue when it lost its lock, for whoever holds it next.
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
  private readonly maxTaskBytes: number;
  private readonly maxTasksPerClient: number;
  private readonly prefix: string;
  private opened?: Promise<{ queue: Queue; redis: Records }>;
  private worker?: Worker;
  private subscriber?: ReturnType<RedisLike['duplicate']>;
  /**
   * The rounds this instance runs: aborted on cancel (from any instance) or once their lock is lost,
   * handed back on close. Two may run the same task here for a moment (this worker took over its
   * own round after its lock lapsed): each is named by its signal, and fenced by its own token.
   */
  private readonly rounds = new Set<InFlightRound>();
  private readonly log = debugLine(undefined, process.env.DEBUG);
  private closing?: Promise<void>;
  private starting?: Promise<void>;

  constructor(private readonly options: BullmqTasksOptions) {
    this.prefix = options.prefix ?? 'mcpflow';
    ({
      maxTasks: this.maxTasks,
      maxTasksPerClient: this.maxTasksPerClient,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      maxTaskBytes: this.maxTaskBytes,
    } = taskStoreOptions('bullmqTasks', options));
  }

  async check(): Promise<void> {
    await loadBullmq();
  }

  start(runner: TaskRoundRunner): Promise<void> {
    // Kept, so that close() waits for a start in flight (a start retried after Redis came back) and no worker outlives it.
    this.starting = this.closing ? Promise.resolve() : this.startWorker(runner);
    return this.starting;
  }

  private async startWorker(runner: TaskRoundRunner): Promise<void> {
    const { queue, redis } = await this.open();
    const { Worker, DelayedError } = await loadBullmq();
    this.subscriber = redis.duplicate();
    this.subscriber.on('message', (_channel, taskId) => this.fenceOff('cancelled', (round) => round.taskId === taskId));
    await connected(this.subscriber);
    await this.subscriber.subscribe(this.cancelChannel);
    this.worker = new Worker(
      ROUNDS,
      async (job: Job<{ taskId: string }>, token?: string) => {
        const { taskId } = job.data;
        if (job.attemptsStarted > 1 || job.stalledCounter > 0) this.log?.(`mcpflow task round taken over: ${taskId.slice(0, 8)}`);
        const round: InFlightRound = { taskId, controller: new AbortController(), job, token };
        this.rounds.add(round);
        try {
          await runner.runRound(taskId, round.controller.signal);
        } catch (error) {
          // Redis out of reach as the round read its task (as it began, or as it ended after its fence
          // failed): it goes back to the queue like a round that lost its lock. Thrown, BullMQ would mark
          // it failed and remove it, and the task would stay `working` with no round left to run it.
          if (!unreachable.has(error as object)) throw error;
          round.lost = true;
          this.log?.(`mcpflow task round back to the queue (Redis unreachable): ${taskId.slice(0, 8)}`);
        } finally {
          this.rounds.delete(round);
        }
        // Handed back to the queue as this instance closed: BullMQ must not mark it completed.
        // A round that lost its lock (it may hold it again once Redis is back) goes back to the queue, for
        // whichever instance holds the lock next to go on from the last checkpoint; BullMQ must not mark it
        // completed. Where another instance holds it, the move fails and changes nothing.
        if (round.lost && !round.handedOver) await job.moveToDelayed(Date.now(), token).catch(() => undefined);
        if (round.handedOver || round.lost) throw new DelayedError();
      },
      {
        connection: this.options.connection,
        prefix: this.prefix,
        concurrency: this.options.concurrency ?? 16,
        lockDuration: this.options.lockDurationMs ?? 30_000,
        stalledInterval: this.options.stalledIntervalMs ?? this.options.lockDurationMs ?? 30_000,
        maxStalledCount: 100,
      },
    );
    this.worker.on('error', () => {});
    // A lock BullMQ could not renew (another instance holds it, or it lapsed): the round ends at once.
    this.worker.on('lockRenewalFailed', (jobIds: string[]) => this.fenceOff('lost', (round) => jobIds.includes(round.job.id!)));
    await queue.waitUntilReady();
  }

  async create(task: NewTask): Promise<TaskRecord> {
    const bytes = storedBytes(task.call);
    if (bytes > this.maxTaskBytes) throw tooLargeTask('bullmqTasks', bytes, this.maxTaskBytes);
    const record: TaskRecord = { ...task, status: 'working', version: 1, lastUpdatedAt: task.createdAt };
    const expiry = task.createdAt + task.ttlMs;
    const perClient = task.client === undefined ? '' : this.maxTasksPerClient;
    // Large arguments go first, in parts of their own key, each by a plain HSET (the first with the key's TTL):
    // through the script, Redis's Lua copies them slowly; in one command, Redis is busy with them for long.
    const large = task.call.length >= LARGE_CALL_CHARACTERS;
    const { fields, parts } = newTaskFields(record, large);
    const args = [Date.now(), this.maxTasks, task.ttlMs, expiry, task.taskId, perClient, large ? '1' : '', ...fields];
    const clientKey = `${this.liveTasksKey}:${task.client ?? ''}`;
    const key = this.key(task.taskId);
    const partsKey = callPartsKey(key);
    const created = await this.command(async ({ redis }) => {
      if (large) {
        await redis.multi().hset(partsKey, '1', parts[0]).pexpire(partsKey, task.ttlMs).exec();
        await Promise.all(parts.slice(1).map((part, index) => redis.hset(partsKey, String(index + 2), part)));
      }
      return redis.mcpflowCreateTask(key, this.liveTasksKey, clientKey, partsKey, ...args);
    });
    if (created === 'full') throw tooManyTasks('bullmqTasks', this.maxTasks, `this store (prefix '${this.prefix}', every instance)`);
    if (created === 'client-full') throw tooManyClientTasks('bullmqTasks', this.maxTasksPerClient);
    return record;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const key = this.key(taskId);
    return this.command(async ({ redis }) => {
      const hash = textOfHash(await redis.hgetallBuffer(key));
      if (hash.callParts !== undefined) {
        // Large arguments, one part a command (pipelined by the connection).
        const count = Number(hash.callParts);
        const parts = await Promise.all(
          Array.from({ length: count }, (_, index) => redis.hgetBuffer(callPartsKey(key), String(index + 1))),
        );
        const call = callOfParts(parts);
        if (call === undefined) return undefined;
        hash.call = call;
      }
      return recordOfHash(hash);
    });
  }

  async view(taskId: string): Promise<TaskView | undefined> {
    return viewOfFields(await this.command(({ redis }) => redis.hmgetBuffer(this.key(taskId), ...VIEW_FIELDS)));
  }

  async update(taskId: string, expectedVersion: number, change: TaskChange): Promise<TaskChangeResult> {
    const args = [expectedVersion, Date.now(), ...changeArguments(change)];
    const [answer, ...hash] = await this.command(({ redis }) => redis.mcpflowUpdateTaskBuffer(this.key(taskId), ...args));
    return { ok: String(answer) === 'ok', task: viewOfFields(hash) } as TaskChangeResult;
  }

  async fence(taskId: string, expectedVersion: number, round: AbortSignal, change: RoundChange = {}): Promise<FenceResult> {
    const held = [...this.rounds].find((candidate) => candidate.controller.signal === round);
    let answer: string | number = 'lost';
    if (held && !round.aborted && held.token !== undefined) {
      const keys = [this.key(taskId), `${this.prefix}:${ROUNDS}:${held.job.id}:lock`];
      const args = [
        held.token,
        expectedVersion,
        Date.now(),
        this.maxTaskBytes,
        change.checkpoint === undefined ? '' : storedValue(CHECKPOINT_FIELD, change.checkpoint),
        change.statusMessage ?? '',
        change.step ?? '',
        ...(change.end ? changeArguments(change.end) : []),
      ];
      // Redis out of reach: the round cannot prove it holds its task, so it ends like one that lost it.
      answer = await this.command(({ redis }) => redis.mcpflowFenceRound(...keys, ...args)).catch(() => 'lost');
    }
    if (typeof answer === 'number') return { held: true, version: answer };
    if (answer !== 'too-large') this.fenceOff(answer as 'lost', (candidate) => candidate === held);
    return { held: false, why: answer as Exclude<FenceResult, { held: true }>['why'] };
  }

  async cancel(taskId: string): Promise<TaskView | undefined> {
    return viewOfFields(
      await this.command(({ redis }) => redis.mcpflowCancelTaskBuffer(this.key(taskId), Date.now(), this.cancelChannel, taskId)),
    );
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
      await redis.del(this.key(taskId), callPartsKey(this.key(taskId)));
      await redis.zrem(this.liveTasksKey, taskId);
    });
    for (const round of this.rounds) if (round.taskId === taskId) round.controller.abort();
  }

  /** Ends the rounds `which` picks, as their fence failed (`why`): each one's step in flight is aborted, and no other starts. */
  private fenceOff(why: Exclude<FenceResult, { held: true }>['why'] | 'cancelled', which: (round: InFlightRound) => boolean): void {
    for (const round of this.rounds) {
      if (!which(round) || round.controller.signal.aborted) continue;
      if (why === 'lost') round.lost = true;
      round.controller.abort();
      this.log?.(`mcpflow task round fenced off (${why}): ${round.taskId.slice(0, 8)}`);
    }
  }

  /**
   * Stops taking rounds and hands those in flight back to the queue, for another instance. Once: a
   * second call (the user's, after `serveHttp`'s `close()` closed it) waits for the first.
   */
  close(): Promise<void> {
    return (this.closing ??= this.closeOnce());
  }

  private async closeOnce(): Promise<void> {
    await this.starting?.catch(() => undefined);
    // Each round in flight goes back to the queue at once (not after its lock expires), for
    // another instance's worker to go on from its last checkpoint; a step still running here is aborted.
    // First no new round here, and the active ones are not waited for (a handler may ignore its
    // signal): the worker stops; the queue's own connection hands each round back, with its lock's token.
    await this.worker?.close(true);
    const opened = await this.opened?.catch(() => undefined);
    const { Job } = await loadBullmq();
    const handing = [...this.rounds].map(async (round) => {
      const { taskId } = round;
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
    return (await this.view(taskId))?.status === 'cancelled';
  }

  /**
   * A command on Redis; Redis away mid-run (it answered once) → an error that says so and what to
   * do, at once: ioredis fails the command rather than queue it. The tasks stay in Redis.
   */
  private async command<T>(run: (opened: { queue: Queue; redis: Records }) => Promise<T>): Promise<T> {
    const opened = await this.open();
    try {
      return await run(opened);
    } catch (error) {
      const failure = new Error(
        `mcpflow bullmqTasks: Redis is unreachable (${(error as Error).message}). ` +
          'The tasks are kept in Redis, not lost: retry once Redis is back (this server goes on serving what does not need it).',
        { cause: error },
      );
      unreachable.add(failure);
      throw failure;
    }
  }

  /**
   * BullMQ's queue and a Redis connection for the task records, once; Redis unreachable → an error
   * that names the fix, and the next use tries again (a failed start is not kept).
   */
  private open(): Promise<{ queue: Queue; redis: Records }> {
    this.opened ??= (async () => {
      const { Queue } = await loadBullmq();
      const timeoutMs = this.options.connectTimeoutMs ?? 5000;
      const redis = withTaskCommands(await recordsConnection(this.options.connection));
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
    })().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    });
    return this.opened;
  }
}

/** The errors `command` threw because Redis was out of reach (a round that meets one goes back to the queue). */
const unreachable = new WeakSet<object>();

/** The connection with the task records' scripts defined on it (sent once, then run by digest). */
function withTaskCommands(redis: RedisLike): Records {
  redis.defineCommand('mcpflowCreateTask', { numberOfKeys: 4, lua: CREATE_TASK });
  redis.defineCommand('mcpflowUpdateTask', { numberOfKeys: 1, lua: UPDATE_TASK });
  redis.defineCommand('mcpflowCancelTask', { numberOfKeys: 1, lua: CANCEL_TASK });
  redis.defineCommand('mcpflowFenceRound', { numberOfKeys: 2, lua: FENCE_ROUND });
  return redis as Records;
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
