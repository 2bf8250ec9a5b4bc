import type { PromptMessage } from '../content';
import type { StepStatus } from './flow-outcome';

/** How one iteration of a `forEach` step, or one step of a parallel group, ended. */
export interface FinishedWork {
  readonly status: StepStatus;
  /** A completed one's value (transformed), bound once its group or loop ends. */
  readonly value?: unknown;
  readonly reason?: string;
  /** Its part of the trace, merged in declaration (or element) order once its group or loop ends. */
  messages: PromptMessage[];
}

/** What the flow of one step produced beyond its status. */
export interface StepFlow {
  /** Why the step was skipped, or why an optional step failed. */
  reason?: string;
  /** A step of a parallel group that finished while the group still ran. */
  finished?: FinishedWork;
  /** A `forEach` step: how many elements, and each finished iteration by element index. */
  loop?: { readonly count: number; readonly iterations: Record<number, FinishedWork> };
}
