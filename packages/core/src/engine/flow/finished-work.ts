import type { Trace } from '../trace/trace';
import type { FlowOutcome } from './flow-outcome';

/**
 * A step of a parallel group, or an iteration of a `forEach` step, once it ended: how, and its part
 * of the trace, merged in declaration (or element) order when the whole group or loop has ended.
 */
export interface FinishedWork {
  readonly outcome: FlowOutcome;
  readonly trace: Trace;
}
