import type { StepOutcome } from '../steps/step-outcome';

/** A `forEach` step's iterations in `_meta`: how many elements, how each ended, and why each failed one failed. */
export interface IterationsMeta {
  count: number;
  completed: number;
  skipped: number;
  failed: number;
  cancelled: number;
  failures: { index: number; status: Exclude<StepOutcome['status'], 'completed'>; reason: string }[];
}
