import type { StepStatus } from '../flow/flow-outcome';
import type { StepFlow } from './execution-state';
import type { StepMeta } from './step-events';

/** One step's entry in `_meta`: its status, the reason it was skipped or did not stop the run, and its iterations. */
export function stepMeta(name: string, status: StepStatus, flow: StepFlow | undefined): StepMeta {
  const meta: StepMeta = { name, status };
  if (flow?.reason !== undefined) meta.reason = flow.reason;
  if (flow?.iterations) meta.iterations = flow.iterations;
  return meta;
}
