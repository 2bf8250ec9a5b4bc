/**
 * Where tasks live (§2.13): one small interface that the memory store (`memoryTasks()`) and a store
 * shared by several instances (`bullmqTasks()`) implement. It knows no wire (that is
 * `tasks-wire.ts`), no SDK and no engine: a store keeps records, hands rounds to a runner, and
 * aborts a round when its task is cancelled.
 *
 * Every value a record holds besides ids, statuses, times and numbers is a **sealed** string
 * (`SealedTaskValue`, sealed with `pause.keys` by the kit before it reaches the store), so a store
 * outside the process never holds an argument, a question, an answer or a result in clear.
 */

/** A task's status, as `tasks/get` reports it. `completed`, `failed` and `cancelled` are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
const TERMINAL_TASK_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);

/** Whether a task in this status is over (its result, if any, is final; it only waits to expire). */
export function isTerminalTaskStatus(status: TaskStatus): boolean {
  return TERMINAL_TASK_STATUSES.has(status);
}

/**
 * A value sealed by the kit (AES-256-GCM with `pause.keys`, bound to the task id): opaque to the
 * store, which stores and returns it unchanged.
 */
export type SealedTaskValue = string;

/** What the kit hands the store to create a task. */
export interface NewTask {
  /**
   * What the store knows the task by: its ref, an HMAC of the task id under the server's keys (the
   * id itself, ≥ 128 random bits that give access to the task, never reaches a store). base64url.
   */
  readonly taskId: string;
  /** The tool the client called (a workflow's tool face or a `defineTool` tool). */
  readonly tool: string;
  /**
   * Who created the task, when the creating request carried an authenticated principal
   * (`authInfo`): an HMAC under the server's keys, never the token or the principal in clear. A
   * task answers only to requests of the same principal.
   */
  readonly principal?: string;
  /**
   * Which client the task counts against under `maxTasksPerClient`: an HMAC of its principal, else
   * of its session, else of its address; absent when the request tells none of them.
   */
  readonly client?: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  /** How long the task is kept after its creation, in ms (an integer). */
  readonly ttlMs: number;
  /** How often a client should poll `tasks/get`, in ms (an integer). */
  readonly pollIntervalMs: number;
  /** The call's arguments, and whatever the call gathered before it became a task (MRTR answers). */
  readonly call: SealedTaskValue;
}

/** A stored task. `version` grows by one with every change; a change names the version it was made from. */
export interface TaskRecord extends NewTask {
  readonly status: TaskStatus;
  readonly version: number;
  /** Milliseconds since the epoch. */
  readonly lastUpdatedAt: number;
  /** A short text for the client (`statusMessage`), without values. */
  readonly statusMessage?: string;
  /**
   * The step the task's round runs or waits at, written with `statusMessage`: a `RunningStep` as JSON
   * text (names and numbers, no value), which `tasks/get` carries in `_meta["mcpflow/task"]`.
   */
  readonly step?: string;
  /**
   * The run's execution state: where a paused run stopped (status `input_required`), or the last
   * checkpoint of a working run (a durable store resumes a round from it).
   */
  readonly state?: SealedTaskValue;
  /**
   * The checkpoints of a working round, oldest first — the engine's whole state as the round
   * started, then each completed step's delta (what it added), each sealed on its own — kept only by
   * a store whose rounds can be taken over (`checkpoints`): the round that takes over goes on from
   * all of them. Dropped when the round pauses or ends.
   */
  readonly checkpoints?: readonly SealedTaskValue[];
  /** The pending input requests (keyed by server-minted ids), while `input_required`. */
  readonly inputRequests?: SealedTaskValue;
  /** The answers received so far for `inputRequests` (keyed by the same ids). */
  readonly answers?: SealedTaskValue;
  /** With a terminal status: the tool result (`completed`) or the JSON-RPC error (`failed`). */
  readonly result?: SealedTaskValue;
}

/** A task as a client's request reads it (`tasks/get`, `tasks/update`, `tasks/cancel`): without its arguments and checkpoints, a round's business. */
export type TaskView = Omit<TaskRecord, 'call' | 'checkpoints'>;

/**
 * A change to a task, made only from the version it names (compare-and-set). Fields left out stay
 * as they are; `null` removes one.
 */
export interface TaskChange {
  readonly status?: TaskStatus;
  readonly statusMessage?: string | null;
  readonly step?: string | null;
  readonly state?: SealedTaskValue | null;
  /** `null` drops the task's checkpoints (a round adds each one with `TaskStore.fence`). */
  readonly checkpoints?: null;
  readonly inputRequests?: SealedTaskValue | null;
  readonly answers?: SealedTaskValue | null;
  readonly result?: SealedTaskValue | null;
}

/**
 * How a change went: the task as it now is, or — when the task changed since `expectedVersion`,
 * is terminal, or is gone — the task as it is (or `undefined`), for the caller to retry or give up.
 */
export type TaskChangeResult = { readonly ok: true; readonly task: TaskView } | { readonly ok: false; readonly task: TaskView | undefined };

/**
 * What a working round writes with the proof that it still holds its task (`TaskStore.fence`): the
 * checkpoint of the step it completed — appended to the task's `checkpoints`, the ones before left
 * as they are — and the step it runs now or next (`statusMessage`), or nothing (a proof only).
 */
export interface RoundChange {
  readonly checkpoint?: SealedTaskValue;
  readonly statusMessage?: string;
  /** The step the round runs now or next, with `statusMessage`: a `RunningStep` as JSON (`TaskRecord.step`). */
  readonly step?: string;
  /**
   * How the round ended (its status, result or questions, its checkpoints dropped), written with the
   * proof in place of a checkpoint: a round records its end only while it still holds its task, in
   * the same atomic step (no checkpoint of the last step is written just to be dropped).
   */
  readonly end?: TaskChange;
}

/**
 * How a fence went (DESIGN §2.13 "Fenced rounds"): the round still holds the task, now at `version`;
 * or it does not — `lost` (its lock lapsed, another round holds it, or the store could not tell),
 * `terminal` (the task was cancelled, completed or failed), `changed` (the task moved on since the
 * round's version), `gone` (expired or removed), `too-large` (the checkpoint would take the task
 * over `maxTaskBytes`: the round still holds the task, and fails it naming the option) — and, but for
 * `too-large`, the store has aborted the round's signal.
 */
export type FenceResult =
  | { readonly held: true; readonly version: number }
  | { readonly held: false; readonly why: 'lost' | 'terminal' | 'changed' | 'gone' | 'too-large' };

/**
 * Runs one round of a task: starts it (status `working`, no `state`), resumes it once its questions
 * are all answered, or — in a durable store — goes on from its last checkpoint. The kit provides it;
 * a store calls it wherever its rounds run (in this process for the memory store, on any instance's
 * worker for a shared one). It reads the task from the store, runs until the run ends or pauses,
 * and records the outcome itself; `signal` aborts when the task is cancelled (or the store closes).
 */
export interface TaskRoundRunner {
  runRound(taskId: string, signal: AbortSignal): Promise<void>;
  /** Told when the store forgets a task at the end of its TTL (for the debug log); optional. */
  expired?(taskId: string): void;
}

/** Thrown by `create` when the store holds as many live tasks as it may, or the task is over `maxTaskBytes`; the message names the option. */
export class TaskLimitError extends Error {
  readonly code = 'TASK_LIMIT';
  constructor(message: string) {
    super(message);
    this.name = 'TaskLimitError';
  }
}

/**
 * The store behind the `tasks` server option.
 *
 * Contract for an implementation:
 * - `create` stores the task in `working` at version 1, and only resolves once `get` (on any
 *   instance) finds it; over its bound it throws `TaskLimitError`.
 * - `update` applies a change only if the task is at `expectedVersion` and not terminal; a change to
 *   a terminal status is final.
 * - `fence` proves a round's hold (its signal, its version, the task `working`) and appends a
 *   checkpoint with the proof (or writes the round's `end`), or aborts the round's signal; a task's `call` is written once, at
 *   `create`, each checkpoint once, by its fence, and no later change rewrites either.
 * - `cancel` wins over everything: a live task becomes `cancelled` (its `state`, `inputRequests`
 *   and `answers` dropped) whatever its version, and the signal of a round running it aborts,
 *   wherever the round runs. On a terminal task it changes nothing. Unknown ids resolve `undefined`.
 * - `schedule` asks for one round of the task to run (soon, once) through the runner given to
 *   `start`; a round of a task that is terminal by then does nothing.
 * - A task is forgotten `ttlMs` after its creation (`expired` lists those due; a store may also
 *   forget them by itself).
 */
export interface TaskStore {
  /** Defaults for new tasks: how long one is kept, how often a client should poll (ms, integers). */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /**
   * Whether a round's work may be taken over by another round (a shared store whose instance may
   * die mid-round): then each completed step is checkpointed in the task (its delta appended to
   * `checkpoints`), and a round goes on from all of them. Absent or false (the memory store): no checkpoints, no cost.
   */
  readonly checkpoints?: boolean;
  /**
   * Hands the store the runner of rounds; called once, when the server starts serving tasks — and
   * again at the next task call when it rejected (Redis down): a failed start must leave nothing running.
   */
  start(runner: TaskRoundRunner): Promise<void>;
  /**
   * Rejects when the store cannot work in this process whatever happens later — a package it runs
   * on is missing (bullmqTasks: bullmq, ioredis) — without connecting anywhere; `serveStdio` and
   * `serveHttp` await it before they serve. Absent: nothing to check.
   */
  check?(): Promise<void>;
  create(task: NewTask): Promise<TaskRecord>;
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * The task without its arguments and checkpoints (what a client's request needs): a shared store
   * reads less for it than `get`, however large they are. Absent: `get` serves.
   */
  view?(taskId: string): Promise<TaskView | undefined>;
  update(taskId: string, expectedVersion: number, change: TaskChange): Promise<TaskChangeResult>;
  /**
   * A round's proof that it still holds its task, with what it writes (DESIGN §2.13 "Fenced rounds"),
   * atomically: the round running with `round` (the signal the store gave it in `runRound`, which
   * names it) still holds the task — in a shared store its lock, under its token — the task is
   * `working` at `expectedVersion`; then `change` is written (its checkpoint appended: never the
   * whole record) and the version moves on. When any of it fails, nothing is written, the store
   * aborts `round` and answers why: the round ends there, never retries on a newer version and never
   * starts another step. A store that cannot reach its backend answers `lost` too.
   */
  fence(taskId: string, expectedVersion: number, round: AbortSignal, change?: RoundChange): Promise<FenceResult>;
  /** Cancels a live task (a terminal one stays as it is); answers the task as it then is, `undefined` when it is gone. */
  cancel(taskId: string): Promise<TaskView | undefined>;
  schedule(taskId: string): Promise<void>;
  /** The ids of tasks whose `createdAt + ttlMs` is before `now`. */
  expired(now: number): Promise<readonly string[]>;
  /** Forgets a task (aborting a round still running it). */
  remove(taskId: string): Promise<void>;
  /** Stops running rounds (aborting those in flight) and releases timers and connections. */
  close(): Promise<void>;
}
