import type { TaskRecord } from './task-store';
import type { TaskValues } from './task-values';
import { TASK_ERROR_CODES, type TaskDetails, type TaskError } from './tasks-wire';

/**
 * The opened outcome of each finished task record this process has answered for: a task polled
 * again once it has ended opens its sealed result once, not on every `tasks/get`. Keyed by the
 * record object itself, so only the very record the store handed back (the memory store returns the
 * same object until the task changes, and a finished task never changes) reuses it; a store that
 * reads records afresh (`bullmqTasks`) opens each time, as before. Weak: gone with the record.
 */
const opened = new WeakMap<TaskRecord, TaskDetails>();

/**
 * What `tasks/get` inlines for a `completed` or `failed` task: its result or its error, opened
 * with `values` (the task's own), or the failure the record's status message tells.
 *
 * @example
 * ```ts
 * detailedTask(record, finishedOutcome(record, values));
 * ```
 */
export function finishedOutcome(record: TaskRecord, values: TaskValues): TaskDetails {
  let details = opened.get(record);
  if (!details) {
    details =
      record.result === undefined
        ? { error: { code: TASK_ERROR_CODES.internalError, message: record.statusMessage ?? 'the task failed' } }
        : values.open<{ result?: unknown; error?: TaskError }>(record.result);
    opened.set(record, details);
  }
  return details;
}
