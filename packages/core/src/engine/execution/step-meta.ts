import type { StepStatus } from '../flow/flow-outcome';
import type { StepFlow } from './execution-state';
import type { StepMeta } from './step-events';

/**
 * One step's entry in `_meta`: its status, the reason it was skipped or did not stop the run, its
 * iterations, and — when the request asked for timing — how long it and its iterations ran.
 */
export function stepMeta(name: string, status: StepStatus, flow: StepFlow | undefined, timing = false): StepMeta {
  const meta: StepMeta = { name, status };
  if (flow?.reason !== undefined) meta.reason = flow.reason;
  if (flow?.iterations) meta.iterations = flow.iterations;
  if (timing && flow?.durationMs !== undefined) meta.durationMs = flow.durationMs;
  if (timing && flow?.iterationDurationsMs) meta.iterationDurationsMs = flow.iterationDurationsMs;
  return meta;
}
