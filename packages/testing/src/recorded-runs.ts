import type { WorkflowClass } from '@mcpflow/core';
import type { RunWorkflowOptions, WorkflowRun } from './run-options';

/** How a `WorkflowRun` came about: what `rerun()` runs again, and the id its server recorded it under (absent: not recorded). */
export interface RecordedRun {
  readonly target: WorkflowClass;
  readonly options: RunWorkflowOptions;
  readonly runId?: string;
}

/** Each run `runWorkflow` (or `rerun`) returned, by its result object: nothing is kept once a test drops the result. */
const recorded = new WeakMap<WorkflowRun, RecordedRun>();

export function rememberRun(run: WorkflowRun, how: RecordedRun): void {
  recorded.set(run, how);
}

export function recordedRun(run: WorkflowRun): RecordedRun | undefined {
  return recorded.get(run);
}
