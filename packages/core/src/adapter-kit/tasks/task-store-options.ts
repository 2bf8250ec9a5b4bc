import { TaskLimitError } from './task-store';

/** The options both task stores take: how many tasks they keep, how long, and how often clients poll. */
export interface TaskStoreOptions {
  /** The most tasks kept at once (live or finished, until they expire); one more is refused with an error naming this option. Default 1,000. */
  readonly maxTasks?: number;
  /**
   * The most tasks one client keeps at once (counted by its principal, else its 2025 session, else
   * its address; a request the server can tell none of counts only under `maxTasks`), so one client
   * cannot take all of `maxTasks`; one more is refused with an error naming this option. Default a
   * tenth of `maxTasks`, rounded up.
   */
  readonly maxTasksPerClient?: number;
  /** How long a task is kept after its creation, in ms. Default 3,600,000 (an hour). */
  readonly ttlMs?: number;
  /** How often a client should poll `tasks/get`, in ms. Default 1,000. */
  readonly pollIntervalMs?: number;
  /**
   * The most bytes one task stores (its sealed arguments, and later its checkpoints, questions,
   * answers and result): a call over it is refused with an error naming this option, and a round
   * whose next checkpoint would take its task over it fails naming it. Default 16 MiB.
   */
  readonly maxTaskBytes?: number;
}

/** The defaults of {@link TaskStoreOptions}, the same for every store (DESIGN §2.13). */
const TASK_STORE_DEFAULTS = { maxTasks: 1000, ttlMs: 3_600_000, pollIntervalMs: 1000, maxTaskBytes: 16 * 1024 * 1024 } as const;

/**
 * A store's options with the defaults filled in, each checked: a positive integer, or a
 * `RangeError` that names the store and the option.
 *
 * @example
 * ```ts
 * taskStoreOptions('memoryTasks', { ttlMs: 600_000 }); // { maxTasks: 1000, ttlMs: 600000, pollIntervalMs: 1000, maxTaskBytes: 16777216, maxTasksPerClient: 100 }
 * ```
 */
export function taskStoreOptions(store: string, options: TaskStoreOptions): Required<TaskStoreOptions> {
  const filled: Record<string, number> = { ...TASK_STORE_DEFAULTS };
  const check = (option: keyof TaskStoreOptions, value: number) => {
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`mcpflow ${store}: ${option} must be a positive integer, not ${String(value)}.`);
    filled[option] = value;
  };
  for (const option of Object.keys(TASK_STORE_DEFAULTS) as (keyof typeof TASK_STORE_DEFAULTS)[])
    check(option, options[option] ?? TASK_STORE_DEFAULTS[option]);
  check('maxTasksPerClient', options.maxTasksPerClient ?? Math.ceil(filled.maxTasks / 10));
  return filled as Required<TaskStoreOptions>;
}

/** The error of one task too many: the store keeps `maxTasks` tasks that have not expired. */
export function tooManyTasks(store: string, maxTasks: number, where: string): TaskLimitError {
  return new TaskLimitError(
    `mcpflow tasks: ${where} keeps at most ${maxTasks} tasks at once (${store} maxTasks), and that many have not expired yet. ` +
      `Retry later, or raise maxTasks.`,
  );
}

/** The error of a task that would store more than `maxTaskBytes` (its arguments, at creation). */
export function tooLargeTask(store: string, bytes: number, maxTaskBytes: number): TaskLimitError {
  return new TaskLimitError(
    `mcpflow tasks: this task would store ${bytes} bytes (its sealed arguments), over ${store} maxTaskBytes (${maxTaskBytes}). ` +
      'Send smaller arguments (a reference such as a URL instead of the content), or raise maxTaskBytes.',
  );
}

/** The bytes a sealed value (or a record's string field) takes in a store. */
export function storedBytes(value: string | undefined): number {
  return value === undefined ? 0 : Buffer.byteLength(value);
}

/** The error of one task too many for one client: it keeps `maxTasksPerClient` tasks that have not expired. */
export function tooManyClientTasks(store: string, maxTasksPerClient: number): TaskLimitError {
  return new TaskLimitError(
    `mcpflow tasks: this client already keeps ${maxTasksPerClient} tasks that have not expired (${store} maxTasksPerClient: ` +
      `${maxTasksPerClient}, by default a tenth of maxTasks), so that one client cannot take every task place. ` +
      'Retry once some expire, or raise maxTasksPerClient.',
  );
}
