import type { TaskRecord } from './task-store';
import type { TaskValues } from './task-values';
import { TASK_ERROR_CODES, type TaskDetails, type TaskError } from './tasks-wire';

/** On a finished task's record, as the store handed it back to the round that finished it: its outcome, in clear. */
const OUTCOME = Symbol('mcpflow.taskOutcome');

/**
 * Keeps a finished task's outcome (`{ result }` or `{ error }`, as sealed) on the record the store
 * returned for that change, so that `tasks/get` does not open what this process just sealed. Only
 * the memory store hands the same record object to `tasks/get` (a finished task never changes
 * again); a store that reads records afresh (`bullmqTasks`) never sees it, and the property — a
 * symbol, not enumerable — is never serialized. It lives and dies with the record.
 *
 * @example
 * ```ts
 * keepOutcome(changed.task, { result });
 * ```
 */
export function keepOutcome(record: TaskRecord, outcome: TaskDetails): void {
  if (Object.isExtensible(record) && !Object.hasOwn(record, OUTCOME)) Object.defineProperty(record, OUTCOME, { value: outcome });
}

/**
 * What `tasks/get` inlines for a `completed` or `failed` task: its result or its error — kept by
 * the round that finished it, else opened with `values` (the task's own) — or, without one, the
 * failure the record's status message tells.
 *
 * @example
 * ```ts
 * detailedTask(record, finishedOutcome(record, values));
 * ```
 */
export function finishedOutcome(record: TaskRecord, values: TaskValues): TaskDetails {
  const kept = (record as { [OUTCOME]?: TaskDetails })[OUTCOME];
  if (kept) return kept;
  if (record.result === undefined)
    return { error: { code: TASK_ERROR_CODES.internalError, message: record.statusMessage ?? 'the task failed' } };
  return values.open<{ result?: unknown; error?: TaskError }>(record.result);
}
