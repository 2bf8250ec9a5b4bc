import {
  ReplayGuardError,
  SealedStateError,
  executeWorkflowRound,
  type ExecutionOptions,
  type Host,
  type RoundPausing,
  type WorkflowPlan,
} from '../../engine';
import type { AdapterLine, RoundsSupport } from '../adapter-line';

/**
 * One request of protocol 2026-07-28 for a workflow that may pause: the result, or the line's
 * `input_required` with the questions and the sealed state. A `requestState` the server will not
 * resume from (replays included) is `InvalidParams`, and nothing of the workflow runs. A replay
 * guard that cannot tell (its store down, or full) refuses the resume with a server error in its
 * own words; the store's error, which may name hosts or credentials, is never sent.
 *
 * @example
 * ```ts
 * return runRound(line, rounds, plan, args, host, options, { sealer, replayGuard }, rounds.requestState(context));
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
): Promise<unknown> {
  let round;
  try {
    round = await executeWorkflowRound(plan, args, host, options, pausing, requestState);
  } catch (error) {
    if (error instanceof SealedStateError) throw line.invalidParams(`Prompt ${plan.model.name}: ${error.message}`);
    if (error instanceof ReplayGuardError) throw new Error(`Prompt ${plan.model.name}: ${error.message}`);
    throw error;
  }
  return round.kind === 'result' ? round.result : rounds.inputRequired(round.inputRequests, round.requestState);
}
