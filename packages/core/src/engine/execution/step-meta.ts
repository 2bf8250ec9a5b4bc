import type { Trace } from '../trace/trace';
import type { StepStatus } from '../flow/flow-outcome';
import type { StepFlow } from '../flow/step-flow';
import type { IterationsMeta, StepMeta } from './step-events';

/** One step's entry in `_meta`: its status, the reason it was skipped or did not stop the run, and its iterations. */
export function stepMeta(name: string, status: StepStatus, flow: StepFlow | undefined, trace: Trace): StepMeta {
  const meta: StepMeta = { name, status };
  if (flow?.reason !== undefined) meta.reason = trace.redact(flow.reason);
  if (flow?.loop) meta.iterations = iterationsMeta(flow.loop, trace);
  return meta;
}

function iterationsMeta(loop: NonNullable<StepFlow['loop']>, trace: Trace): IterationsMeta {
  const meta: IterationsMeta = { count: loop.count, completed: 0, skipped: 0, failed: 0, cancelled: 0, failures: [] };
  for (let index = 0; index < loop.count; index += 1) {
    const work = loop.iterations[index];
    if (!work) continue;
    if (work.status === 'completed' || work.status === 'skipped' || work.status === 'cancelled') meta[work.status] += 1;
    else meta.failed += 1;
    if (work.status !== 'completed' && work.status !== 'skipped')
      meta.failures.push({ index, status: work.status, reason: trace.redact(work.reason ?? '') });
  }
  return meta;
}
