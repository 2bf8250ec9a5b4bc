import type { AppliedLimits } from '../execution-limits';
import type { Host } from '../host';
import type { PlannedStep } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import type { Redactor } from '../redaction/redactor';
import type { Trace } from '../trace/trace';

/** What a running step reads and writes: the scope it resolves from, the trace it adds to, the host it calls. */
export interface StepContext {
  readonly host: Host;
  /** The run's id, passed to every tool the run calls (see `ExecutionState.runId`). */
  readonly runId: string;
  readonly scope: ExecutionScope;
  readonly trace: Trace;
  readonly redactor: Redactor;
  /** The server's limits: the default step timeout, the trace's size bound. */
  readonly limits: AppliedLimits;
}

/** How long one try of the step may take: its own `timeoutMs`, else the server's default (undefined: no limit). */
export function stepTimeoutMs(step: PlannedStep, context: StepContext): number | undefined {
  const fallback = context.limits.defaultStepTimeoutMs;
  return step.model.timeoutMs ?? (fallback === false ? undefined : fallback);
}
