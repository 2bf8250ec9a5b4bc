import type { WorkflowPlan } from '../plan/plan-workflow';
import type { StepContext } from '../steps/step-context';
import type { ExecutionState } from './execution-state';

/** What the steps of a run share, and what the executor adds: the plan it runs and the state it advances. */
export interface RunContext extends StepContext {
  readonly plan: WorkflowPlan;
  readonly state: ExecutionState;
}
