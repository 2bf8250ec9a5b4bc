import type { FinishedWork } from '../flow/finished-work';
import type { FlowOutcome } from '../flow/flow-outcome';
import { childController, hostWithSignal } from '../flow/host-with-signal';
import type { PlannedStep } from '../plan/plan-workflow';
import { Trace } from '../trace/trace';
import type { ExecutionStop } from './execution-state';
import type { RunContext } from './run-context';
import type { StepRunner } from './step-runner';

/**
 * Runs a parallel group: its steps start together, each writing its own part of the trace, merged
 * in declaration order once all have settled, whatever order they finished in.
 *
 * Failure policy: when a step that is not `optional` fails or hands off, the group's other steps
 * are cancelled (their tools see their signal abort), the group waits for them to settle, and the
 * run stops at that step. An `optional` step's failure cancels nothing.
 */
export async function runGroup(group: readonly PlannedStep[], runner: StepRunner, context: RunContext): Promise<ExecutionStop | undefined> {
  const { controller, release } = childController(context.host.signal);
  const host = hostWithSignal(context.host, controller.signal);
  const finished: FinishedWork[] = [];
  let failed: { step: PlannedStep; status: string } | undefined;
  try {
    await Promise.all(
      group.map(async (step, position) => {
        const trace = new Trace([]);
        const outcome = await runner.outcome(step, { ...context, host, trace }, false);
        finished[position] = { outcome, trace };
        if ((outcome.status === 'failed' || outcome.status === 'handoff') && !step.model.optional && !failed) {
          failed = { step, status: outcome.status === 'failed' ? 'failed' : 'handed off' };
          controller.abort();
        }
      }),
    );
  } finally {
    release();
  }

  let stop: ExecutionStop | undefined;
  group.forEach((step, position) => {
    const { outcome, trace } = finished[position];
    context.trace.append(trace);
    const byFailure = outcome.status === 'cancelled' && failed !== undefined && failed.step !== step && !context.host.signal.aborted;
    const settled: FlowOutcome = byFailure
      ? { ...outcome, reason: `cancelled because step '${failed!.step.model.name}' of its parallel group ${failed!.status}` }
      : outcome;
    const stepStop = runner.settle(step, settled, context.trace);
    if (!stepStop) return;
    // The run stops at the step that failed, not at a sibling cancelled because of it.
    if (!stop || (stop.status === 'cancelled' && stepStop.status !== 'cancelled')) {
      const replaced = stop;
      if (replaced) runner.flow(group.find((member) => member.index === replaced.step)!).reason = replaced.reason;
      stop = stepStop;
    } else {
      runner.flow(step).reason = stepStop.reason;
    }
  });
  return stop;
}
