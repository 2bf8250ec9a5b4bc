import type { FlowOutcome } from '../flow/flow-outcome';
import { childController, hostWithSignal } from '../flow/host-with-signal';
import type { FinishedWork } from '../flow/step-flow';
import type { PlannedStep } from '../plan/plan-workflow';
import { Trace } from '../trace/trace';
import type { ExecutionState, ExecutionStop } from './execution-state';
import type { RunContext } from './run-context';
import type { StepRunner } from './step-runner';

/**
 * Runs a parallel group: its steps start together, each writing its own part of the trace, merged
 * in declaration order once all have settled, whatever order they finished in.
 *
 * Failure policy: when a step that is not `optional` fails or hands off, the group's other steps
 * are cancelled (their tools see their signal abort), the group waits for them to settle, and the
 * run stops at that step. An `optional` step's failure cancels nothing. A finished step is kept in
 * the execution state until the group ends, so a run paused inside the group does not redo it.
 */
export async function runGroup(
  group: readonly PlannedStep[],
  runner: StepRunner,
  state: ExecutionState,
  context: RunContext,
): Promise<ExecutionStop | undefined> {
  const { controller, release } = childController(context.host.signal);
  const host = hostWithSignal(context.host, controller.signal);
  let failed: { step: PlannedStep; status: string } | undefined;
  try {
    await Promise.all(
      group.map(async (step) => {
        const flow = runner.flow(step);
        if (flow.finished) return; // finished before the run was paused
        const messages: FinishedWork['messages'] = [];
        const outcome = await runner.outcome(step, { ...context, host, trace: new Trace(messages, context.redactor) }, false);
        flow.finished =
          outcome.status === 'completed'
            ? { status: 'completed', value: outcome.value, messages }
            : { status: outcome.status, reason: outcome.reason, messages };
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
  for (const step of group) {
    const flow = runner.flow(step);
    const work = flow.finished!;
    delete flow.finished;
    context.trace.messages.push(...work.messages);
    const byFailure = work.status === 'cancelled' && failed !== undefined && failed.step !== step && !context.host.signal.aborted;
    const reason = byFailure ? `cancelled because step '${failed!.step.model.name}' of its parallel group ${failed!.status}` : work.reason;
    const outcome = (
      work.status === 'completed' ? { status: 'completed', value: work.value } : { status: work.status, reason }
    ) as FlowOutcome;
    const stepStop = runner.settle(step, outcome, context.trace);
    if (!stepStop) continue;
    // The run stops at the step that failed, not at a sibling cancelled because of it.
    if (!stop || (stop.status === 'cancelled' && stepStop.status !== 'cancelled')) {
      const replaced = stop;
      if (replaced) runner.flow(group.find((member) => member.index === replaced.step)!).reason = replaced.reason;
      stop = stepStop;
    } else {
      flow.reason = stepStop.reason;
    }
  }
  return stop;
}
