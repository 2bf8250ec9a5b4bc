import type { PromptMessage } from '../content';
import type { WorkflowPlan } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import type { StepStatus } from './step-events';

/** Where and why a run stopped before its last step. */
export interface ExecutionStop {
  /** The index of the step that stopped the run. */
  readonly step: number;
  readonly status: 'handoff' | 'failed' | 'cancelled';
  /** Why, as the step said it (redacted when written to the trace or `_meta`). */
  readonly reason: string;
}

/**
 * Everything one run has produced so far, as plain data: the executor advances it step by step and
 * nothing of a run lives elsewhere, so a run can stop after any step and go on later from this
 * value alone (JSON-serialisable, given JSON-serialisable step values).
 */
export interface ExecutionState extends ExecutionScope {
  /** The workflow (prompt) name the state belongs to. */
  readonly workflow: string;
  /** The index of the next step to run. */
  position: number;
  readonly bindings: Record<string, unknown>;
  /** The conversation so far. */
  readonly messages: PromptMessage[];
  /** Each step's status in declaration order; `skipped` until the step is reached. */
  readonly statuses: StepStatus[];
  /** Sensitive values found so far; every text of the trace is redacted by them. */
  readonly secrets: string[];
  /** Set once a step stopped the run. */
  stop?: ExecutionStop;
}

/** The state of a run that has not started: no messages, no bindings, every step still to come. */
export function createExecutionState(plan: WorkflowPlan, args: Readonly<Record<string, string | undefined>>): ExecutionState {
  return {
    workflow: plan.model.name,
    args,
    position: 0,
    // No prototype: a binding may be named like an Object.prototype member.
    bindings: Object.create(null) as Record<string, unknown>,
    messages: [],
    statuses: plan.steps.map(() => 'skipped'),
    secrets: [],
  };
}
