import type { StepOutcome } from '../steps/step-outcome';
import type { IterationsMeta } from './iterations-meta';

/**
 * How a step with flow ended: a step outcome, or skipped because its `when` was false. A `forEach`
 * step's also says how its iterations ended.
 */
export type FlowOutcome = (StepOutcome | { readonly status: 'skipped'; readonly reason: string }) & {
  readonly iterations?: IterationsMeta;
};

/** How a step ended; `skipped` steps were never reached, or their `when` was false. */
export type StepStatus = FlowOutcome['status'];
