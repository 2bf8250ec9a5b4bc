import type { StepOutcome } from '../steps/step-outcome';

/** How a step with flow ended: a step outcome, or skipped because its `when` was false. */
export type FlowOutcome = StepOutcome | { readonly status: 'skipped'; readonly reason: string };

/** How a step ended; `skipped` steps were never reached, or their `when` was false. */
export type StepStatus = FlowOutcome['status'];
