import type { StepOutcome } from '../steps/step-outcome';
import type { IterationsMeta } from './iterations-meta';

/**
 * How a step with flow ended: a step outcome, or skipped because its `when` was false. A `forEach`
 * step's also says how its iterations ended.
 */
export type FlowOutcome = (StepOutcome | { readonly status: 'skipped'; readonly reason: string }) & {
  readonly iterations?: IterationsMeta;
};

/**
 * How a step ended, as `_meta["mcpflow/execution"].steps[].status` and `onStep` report it;
 * `skipped` steps were never reached, or their `when` was false. Spelled out, not read from
 * `FlowOutcome`, so the public type names no engine type; the executor stores each outcome's status
 * as a `StepStatus`, so a status missing here fails to compile.
 */
export type StepStatus = 'completed' | 'handoff' | 'failed' | 'cancelled' | 'skipped';
