import {
  ProtocolError,
  ProtocolErrorCode,
  inputRequired,
  type GetPromptResult,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';
import {
  SealedStateError,
  executeWorkflowRound,
  type AskRequest,
  type Host,
  type ExecutionOptions,
  type StateSealer,
  type WorkflowPlan,
} from '../../engine';
import type { RequestContext } from '../request-context';

/**
 * One `prompts/get` of protocol 2026-07-28 for a workflow that may pause: the result, or
 * `input_required` with the questions and the sealed state. A `requestState` the server will not
 * resume from is `InvalidParams`, and nothing of the workflow runs.
 */
export async function runRound(
  plan: WorkflowPlan,
  args: Readonly<Record<string, string | undefined>>,
  host: Host,
  options: ExecutionOptions,
  sealer: StateSealer,
  ctx: RequestContext,
): Promise<GetPromptResult | InputRequiredResult> {
  let round;
  try {
    round = await executeWorkflowRound(plan, args, host, options, sealer, ctx.mcpReq.requestState());
  } catch (error) {
    if (error instanceof SealedStateError)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${plan.model.name}: ${error.message}`);
    throw error;
  }
  if (round.kind === 'result') return round.result as GetPromptResult;
  const inputRequests = Object.fromEntries(Object.entries(round.inputRequests).map(([key, request]) => [key, embedded(request)]));
  return inputRequired({ inputRequests, requestState: round.requestState });
}

function embedded(request: AskRequest) {
  return request.method === 'elicitation/create'
    ? inputRequired.elicit(request.params as Parameters<typeof inputRequired.elicit>[0])
    : inputRequired.createMessage(request.params as Parameters<typeof inputRequired.createMessage>[0]);
}
