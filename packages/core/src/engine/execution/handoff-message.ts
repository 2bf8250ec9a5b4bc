import type { Host } from '../host';
import type { PlannedStep, WorkflowPlan } from '../plan/plan-workflow';
import type { ExecutionScope } from '../plan/resolve-source';
import { stepKindOf } from '../steps/step-kind-of';

/**
 * The assistant message that hands the rest of the workflow to the client's LLM: why the server
 * stopped, then each remaining step with the arguments already known and those still needed.
 */
export function handoffText(
  plan: WorkflowPlan,
  from: PlannedStep,
  reason: string,
  scope: ExecutionScope,
  host: Host,
  client: (text: string) => string,
): string {
  let text = `I cannot complete step '${from.model.name}' on the server: ${reason}.\nThe remaining steps are yours to complete, in order:`;
  for (const step of plan.steps.slice(from.index)) {
    const kind = stepKindOf(step.action);
    text += `\n${step.index + 1}. ${kind.planLine(step, step.action, host)}${kind.handoffDetails(step, step.action, scope, host, client)}`;
  }
  return `${text}\nUse the guidance and resources above; call each tool yourself once its arguments are known.`;
}
