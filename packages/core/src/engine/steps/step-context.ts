import type { AppliedLimits } from '../execution/execution-limits';
import type { ExecutionState } from '../execution/execution-state';
import type { Host } from '../host';
import type { PlannedStep, WorkflowPlan } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import type { Redactor } from '../trace/redactor';
import type { Trace } from '../trace/trace';

/** What a running step reads and writes: the scope it resolves from, the trace it adds to, the host it calls. */
export interface StepContext {
  readonly plan: WorkflowPlan;
  readonly host: Host;
  readonly scope: ExecutionScope;
  readonly trace: Trace;
  readonly redactor: Redactor;
  /** The server's limits: the default step timeout, the trace's size bound. */
  readonly limits: AppliedLimits;
  /** The run's whole state, for what a step records beyond its value (the questions it asked). */
  readonly state: ExecutionState;
}

/** How long one try of the step may take: its own `timeoutMs`, else the server's default (undefined: no limit). */
export function stepTimeoutMs(step: PlannedStep, context: StepContext): number | undefined {
  const fallback = context.limits.defaultStepTimeoutMs;
  return step.model.timeoutMs ?? (fallback === false ? undefined : fallback);
}
