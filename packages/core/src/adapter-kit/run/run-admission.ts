import { InvalidServerOptionError } from '../../engine';
import type { WorkflowServingOptions } from '../workflow-serving-options';
import { runQueue, type RunLane } from './run-queue';
import { ConcurrentRunsRefusal, type RunRefusalCause } from './run-refusal';
import { RunSlot } from './run-slot';

/** How many runs one process executes at once, by default, over every session of every server (a run waiting for an answer is not executing). */
export const DEFAULT_MAX_CONCURRENT_RUNS = 256;

/** How many runs one 2025 session executes at once, by default. */
export const DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION = 16;

/** How many runs may wait for a place in one process, by default; a session may hold a tenth of them. */
export const DEFAULT_MAX_QUEUED_RUNS = 1_000;

/** How long a run waits for a place, by default, in ms, before it is refused. */
export const DEFAULT_QUEUE_TIMEOUT_MS = 30_000;

/** The longest timer Node keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The lane of a server's task rounds: no session, so only the process's cap holds them. */
const TASK_ROUNDS = Symbol('task rounds');

/** A lane of this server, and how many runs hold a place in it (executing, or waiting for an answer). */
interface HeldLane extends RunLane {
  held: number;
}

/**
 * Admits a server's runs under the caps on runs executing at once, per process
 * (`maxConcurrentRuns`) and per session (`maxConcurrentRunsPerSession`), DESIGN §1 "Load limits": a
 * run over either waits for a place, first come first served in its session and in turn across
 * sessions (`run-queue.ts`), and is refused before any step only when the queue is full
 * (`maxQueuedRuns` in the process, a tenth of it per session) or it waited `queueTimeoutMs`. A
 * waiting run whose request is cancelled leaves the queue. A task's rounds wait in a lane of their
 * own, under the process's cap only and without a timeout (a task is long work; its TTL and cancel end it).
 *
 * @example
 * ```ts
 * const admission = new RunAdmission(options);              // out-of-range options throw here
 * const slot = await admission.enter(sessionId, signal);     // rejects with ConcurrentRunsRefusal
 * try { await run(slot); } finally { slot.end(); }
 * ```
 */
export class RunAdmission {
  private readonly maxConcurrentRuns: number;
  private readonly maxConcurrentRunsPerSession: number;
  private readonly maxQueuedRuns: number;
  private readonly maxQueuedRunsPerSession: number;
  private readonly queueTimeoutMs: number;
  /** By session id; `undefined` is the one session of a connection without ids (stdio, in memory, a stateless request's server). */
  private readonly lanes = new Map<string | undefined | typeof TASK_ROUNDS, HeldLane>();

  constructor(options: WorkflowServingOptions) {
    const {
      maxConcurrentRuns = DEFAULT_MAX_CONCURRENT_RUNS,
      maxConcurrentRunsPerSession = DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION,
      maxQueuedRuns = DEFAULT_MAX_QUEUED_RUNS,
      queueTimeoutMs = DEFAULT_QUEUE_TIMEOUT_MS,
    } = options;
    for (const [option, value] of [
      ['maxConcurrentRuns', maxConcurrentRuns],
      ['maxConcurrentRunsPerSession', maxConcurrentRunsPerSession],
    ] as const) {
      if (!(Number.isInteger(value) && value >= 1))
        throw new InvalidServerOptionError(option, `must be a positive integer: how many runs may execute at once (got ${String(value)}).`);
    }
    if (!(Number.isInteger(maxQueuedRuns) && maxQueuedRuns >= 0))
      throw new InvalidServerOptionError(
        'maxQueuedRuns',
        `must be a whole number, 0 or more: how many runs may wait for a place at once (0: refuse at once) (got ${String(maxQueuedRuns)}).`,
      );
    if (!(Number.isInteger(queueTimeoutMs) && queueTimeoutMs >= 1 && queueTimeoutMs <= MAX_TIMER_MS))
      throw new InvalidServerOptionError(
        'queueTimeoutMs',
        `must be a positive whole number of milliseconds, at most ${MAX_TIMER_MS}: how long a run waits for a place (got ${String(queueTimeoutMs)}).`,
      );
    this.maxConcurrentRuns = maxConcurrentRuns;
    this.maxConcurrentRunsPerSession = maxConcurrentRunsPerSession;
    this.maxQueuedRuns = maxQueuedRuns;
    this.maxQueuedRunsPerSession = Math.ceil(maxQueuedRuns / 10);
    this.queueTimeoutMs = queueTimeoutMs;
  }

  /**
   * A place for a run of `session`: at once when there is room, else once one frees (in turn), or a
   * rejection with `ConcurrentRunsRefusal` (queue full, or `queueTimeoutMs` waited) or, when
   * `signal` aborts while it waits, with the abort's reason.
   */
  enter(session: string | undefined, signal: AbortSignal | undefined): RunSlot | Promise<RunSlot> {
    return this.admit(session, signal, true);
  }

  /** A place for one round of a task (DESIGN §2.13): under `maxConcurrentRuns` like any run, waiting until `signal` aborts. */
  enterRound(signal: AbortSignal | undefined): RunSlot | Promise<RunSlot> {
    return this.admit(TASK_ROUNDS, signal, false);
  }

  private admit(key: string | undefined | typeof TASK_ROUNDS, signal: AbortSignal | undefined, timed: boolean): RunSlot | Promise<RunSlot> {
    const lane = this.lane(key);
    if (runQueue.startsNow(lane)) {
      runQueue.start(lane);
      return this.slot(key, lane);
    }
    const full = this.queueFull(key, lane);
    if (full) {
      this.release(key, lane);
      return Promise.reject(new ConcurrentRunsRefusal(full));
    }
    return new Promise<RunSlot>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = (error: unknown) => {
        runQueue.unwait(lane, admit);
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancelled);
        this.release(key, lane);
        reject(error);
      };
      const cancelled = () => leave(signal!.reason);
      const admit = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancelled);
        resolve(this.slot(key, lane));
      };
      if (signal?.aborted) return leave(signal.reason);
      signal?.addEventListener('abort', cancelled, { once: true });
      if (timed) timer = setTimeout(() => leave(new ConcurrentRunsRefusal(this.waited(lane))), this.queueTimeoutMs);
      runQueue.wait(lane, admit);
    });
  }

  /** Why a run cannot wait either: the process's queue, or its session's, is full. */
  private queueFull(key: string | undefined | typeof TASK_ROUNDS, lane: HeldLane): RunRefusalCause | undefined {
    const { maxQueuedRuns, maxConcurrentRuns } = this;
    if (runQueue.queued >= maxQueuedRuns) return { kind: 'process-queue-full', maxQueuedRuns, maxConcurrentRuns };
    if (key !== TASK_ROUNDS && lane.waiting.length >= this.maxQueuedRunsPerSession)
      return {
        kind: 'session-queue-full',
        maxQueuedRuns,
        perSession: this.maxQueuedRunsPerSession,
        maxConcurrentRunsPerSession: this.maxConcurrentRunsPerSession,
      };
    return undefined;
  }

  /** Why a run waited in vain: the cap that held it back as it gave up. */
  private waited(lane: HeldLane): RunRefusalCause {
    const bySession = lane.running >= lane.limit;
    return {
      kind: 'waited',
      queueTimeoutMs: this.queueTimeoutMs,
      cap: bySession ? 'maxConcurrentRunsPerSession' : 'maxConcurrentRuns',
      limit: bySession ? this.maxConcurrentRunsPerSession : this.maxConcurrentRuns,
    };
  }

  /** The lane of `key`, counting one more run in it (released by its slot's end, or when it is refused). */
  private lane(key: string | undefined | typeof TASK_ROUNDS): HeldLane {
    let lane = this.lanes.get(key);
    if (!lane) {
      const limit = key === TASK_ROUNDS ? Number.POSITIVE_INFINITY : this.maxConcurrentRunsPerSession;
      lane = { running: 0, waiting: [], limit, processLimit: this.maxConcurrentRuns, held: 0 };
      this.lanes.set(key, lane);
    }
    lane.held += 1;
    return lane;
  }

  private slot(key: string | undefined | typeof TASK_ROUNDS, lane: HeldLane): RunSlot {
    return new RunSlot(lane, () => this.release(key, lane));
  }

  /**
   * A run of the lane is over (ended, or never admitted): a session's lane nobody holds is
   * forgotten. The server's own two lanes (no session id, task rounds) stay, idle: deleting and
   * adding one again as each run of a stdio or in-memory connection ends and starts cost a
   * `Map` shrink and grow per run.
   */
  private release(key: string | undefined | typeof TASK_ROUNDS, lane: HeldLane): void {
    lane.held -= 1;
    if (lane.held === 0 && key !== undefined && key !== TASK_ROUNDS) this.lanes.delete(key);
  }
}
