import type { WorkflowPlan } from '../plan/plan-workflow';
import type { StepObserver } from '../run-observer';
import type { StepContext } from '../steps/step-context';
import type { ExecutionState } from './execution-state';

/** What the steps of a run share, and what the executor adds: the plan it runs, the state it advances, who observes its steps. */
export interface RunContext extends StepContext {
  readonly plan: WorkflowPlan;
  readonly state: ExecutionState;
  /** What hears about each step (spans, the debug log); absent when nothing observes them. */
  readonly steps?: StepObserver;
}
