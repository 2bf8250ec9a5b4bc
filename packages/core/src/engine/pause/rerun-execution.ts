import { randomUUID } from 'node:crypto';
import type { PromptResult } from '../content';
import { advanceExecution, executionResult, observedRun, stepContext, type ExecutionOptions } from '../execution/execute-workflow';
import type { ExecutionState } from '../execution/execution-state';
import { notifyRunEnd } from '../execution/notify-run-end';
import type { Host, RunState } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { runSecrets } from '../redaction/run-secrets';
import { ownRecord } from '../../util/own-record';
import { restoreSecrets } from './sealed-execution';

/**
 * A copy of a run's state as its host's `checkpoint` hook was told it, kept apart from the run
 * (which goes on changing its own): what a dev server records to rerun the run from a later step.
 * Throws (a `DataCloneError`) when a step bound a value that cannot be copied (a function, say).
 */
export function copyRunState(state: RunState): RunState {
  return structuredClone(state);
}

/**
 * Runs a workflow again from a state recorded at a step boundary (`copyRunState` of a checkpoint):
 * the steps before its position are not run — their bindings, statuses and messages are the
 * recorded ones, as the server recorded them — and that step and the later ones run as a new run,
 * with a new run id and the recorded arguments. Asks in place only (a rerun never pauses by rounds:
 * on a host that cannot ask, a step with questions hands off naming them). The recorded state is
 * not changed, so it can be rerun again.
 *
 * @example
 * ```ts
 * const recorded = copyRunState(checkpointState); // in the host's checkpoint hook
 * const result = await rerunExecution(plan, recorded, host, options);
 * ```
 */
export async function rerunExecution(plan: WorkflowPlan, recorded: RunState, host: Host, options: ExecutionOptions): Promise<PromptResult> {
  const state = freshState(recorded as ExecutionState);
  const context = stepContext(plan, state, host, options, host.observer?.started(undefined, observedRun(plan)));
  restoreSecrets(plan, state, context.redactor);
  await advanceExecution(state, context, options);
  if (state.pause) throw new Error(`workflow '${plan.model.name}' paused for answers in a rerun, which asks in place only`);
  const result = executionResult(state, context);
  await notifyRunEnd(options, state, context.redactor);
  return result;
}

/** A new run's state from a recorded one: its own id, copies of everything the run changes, no pause or trace context of the old run. */
function freshState(recorded: ExecutionState): ExecutionState {
  const copy = structuredClone(recorded);
  const flow: ExecutionState['flow'] = {};
  for (const [index, entry] of Object.entries(copy.flow)) if (Number(index) < copy.position) flow[Number(index)] = entry;
  return {
    ...copy,
    runId: randomUUID(),
    // structuredClone gives plain objects: bindings and answers keep no prototype, as the executor's own.
    bindings: Object.assign(ownRecord<unknown>(), copy.bindings),
    answers: ownRecord<unknown>(),
    args: Object.assign(ownRecord<string | undefined>(), copy.args),
    // Every form of every secret is worked out again from the plan, the arguments, the bindings and what was learned.
    secrets: { ...runSecrets(copy.secrets.mark), learned: copy.secrets.learned },
    flow,
    stop: undefined,
    pause: undefined,
    traceContext: undefined,
  };
}
