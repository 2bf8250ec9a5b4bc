import {
  ReplayGuardError,
  SealedStateError,
  executeWorkflowRound,
  type ExecutionOptions,
  type Host,
  type PromptResult,
  type RoundPausing,
  type RunBinding,
  type WorkflowPlan,
} from '../../engine';
import type { AdapterLine, RoundsSupport } from '../adapter-line';

/**
 * One request of protocol 2026-07-28 for a workflow that may pause: the result (through `finish`,
 * when the face renders its own), or the line's `input_required` with the questions and the sealed
 * state, bound to `binding` (the prompt or tool called). A `requestState` the server will not
 * resume from (replays included) is `InvalidParams`, and nothing of the workflow runs. A replay
 * guard that cannot tell (its store down, or full) refuses the resume with a server error in its
 * own words; the store's error, which may name hosts or credentials, is never sent.
 *
 * @example
 * ```ts
 * return runRound(line, rounds, plan, args, host, options, { sealer, replayGuard }, rounds.requestState(context), { prompt: 'get_hint' });
 * ```
 */
export async function runRound<Server, Context>(
  line: AdapterLine<Server, Context>,
  rounds: RoundsSupport<Server, Context>,
  plan: WorkflowPlan,
  args: Readonly<Record<string, string | undefined>>,
  host: Host,
  options: ExecutionOptions,
  pausing: RoundPausing,
  requestState: string | undefined,
  binding: RunBinding,
  finish?: (result: PromptResult) => unknown,
): Promise<unknown> {
  let round;
  try {
    round = await executeWorkflowRound(plan, args, host, options, pausing, requestState, binding);
  } catch (error) {
    const called = `${binding.face === 'tool' ? 'Tool' : 'Prompt'} ${binding.prompt}`;
    if (error instanceof SealedStateError) throw line.invalidParams(`${called}: ${error.message}`);
    if (error instanceof ReplayGuardError) throw new Error(`${called}: ${error.message}`);
    throw error;
  }
  if (round.kind === 'input-required') return rounds.inputRequired(round.inputRequests, round.requestState);
  return finish ? finish(round.result) : round.result;
}
