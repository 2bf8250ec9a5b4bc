import type { AskRequest } from '../asking/ask-request';
import type { PromptResult } from '../content';
import { advanceExecution, executionResult, observedRun, openTrace, stepContext } from '../execution/execute-workflow';
import { createExecutionState, type ExecutionState } from '../execution/execution-state';
import { notifyRunEnd } from '../execution/notify-run-end';
import type { ExecutionOptions } from '../execution/execute-workflow';
import type { Host } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { isPromiseLike } from '../../util/is-promise-like';
import type { ReplayGuard } from '../sealing/replay-guard';
import type { StateSealer } from '../sealing/state-sealer';
import { restoreSecrets, resumeExecution, runningPlan, sealExecution, type RunBinding } from './sealed-execution';

/** How a run pauses and resumes: the sealer of its states, and the guard that makes each state single use. */
export interface RoundPausing {
  readonly sealer: StateSealer;
  readonly replayGuard: ReplayGuard;
  /** Who resumes, when the server can tell (`PausedRound.client`): the guard's quota is per client. */
  readonly client?: string;
}

/** One request's share of a run on protocol 2026-07-28: the result, or the questions and the sealed state to retry with. */
export type RoundResult =
  | { readonly kind: 'result'; readonly result: PromptResult }
  | { readonly kind: 'input-required'; readonly inputRequests: Readonly<Record<string, AskRequest>>; readonly requestState: string };

/**
 * Runs a workflow for one `prompts/get` of protocol 2026-07-28, where the server cannot wait for
 * the client: from the start, or — given the `requestState` of an earlier round — from where that
 * round paused, with the retry's answers on the host's ask channel. Steps that completed in an
 * earlier round never run again. When a step needs answers, the run pauses: its state is sealed
 * and returned with the questions, for the client to answer and retry on any instance holding a key.
 * The state is bound to `binding` — the prompt, by default, or the tool the client called — and
 * the arguments. Each state resumes once: the replay guard consumes its round (DESIGN §2.8 "Single
 * use"). Throws `SealedStateError` (before anything runs) for a state it will not resume from, and
 * the guard's own error when the guard cannot tell.
 *
 * @example
 * ```ts
 * const round = await executeWorkflowRound(plan, args, host, hooks, { sealer, replayGuard }, params.requestState);
 * if (round.kind === 'input-required') return inputRequired({ inputRequests: …, requestState: round.requestState });
 * ```
 */
export async function executeWorkflowRound(
  plan: WorkflowPlan,
  args: Readonly<Record<string, string | undefined>>,
  host: Host,
  options: ExecutionOptions,
  { sealer, replayGuard, client }: RoundPausing,
  requestState?: unknown,
  binding: RunBinding = { prompt: plan.model.name },
): Promise<RoundResult> {
  const resuming = requestState !== undefined;
  const state = resuming
    ? await resumeExecution(requestState, plan, args, sealer, replayGuard, binding, client)
    : createExecutionState(plan, args);
  return roundFrom(runningPlan(state, plan), host, options, sealer, binding, state, resuming, false, replayGuard);
}

/**
 * Goes on with a run from a state its host's `checkpoint` hook was told (opened with
 * `openCheckpoint`, or a task's chain of them with `CheckpointChain`): the steps it completed never run again; the run's id, trace, bindings and
 * secrets are those of the checkpoint, so the result is the one an uninterrupted run gives. Pauses
 * and ends as {@link executeWorkflowRound} does (`replayGuard`: whose generation a pause seals in).
 *
 * @example
 * ```ts
 * const state = new CheckpointChain(plan, sealer, binding).open(task.checkpoints, args); // or openCheckpoint(one, …)
 * const round = await continueWorkflowRound(plan, host, hooks, sealer, binding, state);
 * ```
 */
export function continueWorkflowRound(
  plan: WorkflowPlan,
  host: Host,
  options: ExecutionOptions,
  sealer: StateSealer,
  binding: RunBinding,
  state: ExecutionState,
  replayGuard?: ReplayGuard,
): Promise<RoundResult> {
  return roundFrom(runningPlan(state, plan), host, options, sealer, binding, state, true, true, replayGuard);
}

/** The rest of a round from `state`: a new run's (the trace to open) or one that goes on (its secrets to restore), `continuing` from a checkpoint or not. */
async function roundFrom(
  plan: WorkflowPlan,
  host: Host,
  options: ExecutionOptions,
  sealer: StateSealer,
  binding: RunBinding,
  state: ExecutionState,
  resuming: boolean,
  continuing: boolean,
  replayGuard?: ReplayGuard,
): Promise<RoundResult> {
  const { observer } = host;
  const steps = observer?.started(resuming ? { traceContext: state.traceContext, rounds: state.rounds } : undefined, observedRun(plan));
  const context = stepContext(plan, state, host, options, steps);
  if (resuming) restoreSecrets(plan, state, context.redactor);
  else await openTrace(state, context);
  // A durable host keeps the round's starting point too: a round taken over before its first step
  // completes goes on with the same run id, and never resumes the client's requestState twice.
  if (host.checkpoint && !continuing) {
    const told = host.checkpoint(state);
    if (isPromiseLike(told)) await told;
  }
  await advanceExecution(state, context, options);
  if (state.pause) {
    const traceContext = observer?.traceContext();
    if (traceContext) state.traceContext = traceContext;
    const sealed = sealExecution(state, plan, sealer, binding, await generationOf(replayGuard, state.runId));
    if (sealed.ok) {
      observer?.ended({ status: 'paused', questions: Object.keys(state.pause.requests).length });
      return { kind: 'input-required', inputRequests: context.redactor.redactDeep(state.pause.requests), requestState: sealed.state };
    }
    cannotPause(state, plan, sealed.reason);
  }
  const result = executionResult(state, context);
  await notifyRunEnd(options, state, context.redactor);
  return { kind: 'result', result };
}

/** The guard's generation for a run's rounds, sealed into its state; only a string counts. */
async function generationOf(replayGuard: ReplayGuard | undefined, runId: string): Promise<string | undefined> {
  const told = replayGuard?.generation?.(runId);
  const generation = isPromiseLike(told) ? await told : told;
  return typeof generation === 'string' ? generation : undefined;
}

/** Ends a run that needed answers but cannot wait for them as a handoff naming the questions. */
function cannotPause(state: ExecutionState, plan: WorkflowPlan, why: string): void {
  const pause = state.pause!;
  const questions = Object.values(pause.requests).map((request) =>
    request.method === 'elicitation/create' ? `"${request.params.message}"` : `"${request.params.messages[0].content.text}"`,
  );
  state.pause = undefined;
  state.statuses[pause.step] = 'handoff';
  state.stop = {
    step: pause.step,
    status: 'handoff',
    reason: `the server cannot pause step '${plan.steps[pause.step].model.name}' to ask ${questions.join(' and ')}: ${why}`,
  };
}
