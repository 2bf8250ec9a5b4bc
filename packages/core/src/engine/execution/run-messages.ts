import type { Host, ToolsRevision } from '../host';
import type { WorkflowPlan } from '../plan/plan-workflow';
import { REDACTED } from '../redaction/redactor';
import { stepKindOf } from '../steps/step-kind-of';

/** The user's intent: the workflow's description and the arguments given, in declared order (marked as the client's by `client`). */
export function intentText(
  plan: WorkflowPlan,
  args: Readonly<Record<string, string | undefined>>,
  client: (text: string) => string,
): string {
  const { model } = plan;
  let text = model.description ?? `Run the ${model.name} workflow.`;
  let listed = '';
  for (const argument of model.arguments) {
    const value = args[argument.name];
    if (value === undefined) continue;
    listed += `\n- ${argument.name}: ${plan.sensitiveArguments.has(argument.name) ? REDACTED : client(value)}`;
  }
  if (listed) text += `\nArguments:${listed}`;
  return text;
}

/** Each plan's message, with the tools it was built from: built again when they change (see `Host.tools`). */
const planTexts = new WeakMap<WorkflowPlan, { readonly tools: ToolsRevision; readonly revision: number; readonly text: string }>();

/** The assistant's plan: every step, with its tool's current description. */
export function planText(plan: WorkflowPlan, host: Host): string {
  const { tools } = host;
  const cached = tools && planTexts.get(plan);
  if (cached && cached.tools === tools && cached.revision === tools.revision) return cached.text;
  let text = 'Plan:';
  for (const step of plan.steps) text += `\n${step.index + 1}. ${stepKindOf(step.action).planLine(step, step.action, host)}`;
  if (tools) planTexts.set(plan, { tools, revision: tools.revision, text });
  return text;
}

/** An instruction resource (`@Workflow({ resources })`) that could not be read. */
export function instructionResourceFailureText(uri: string, cause: string): string {
  return `Could not read instruction resource ${uri}: ${cause}.`;
}

/** A step whose `when` was false. */
export function skippedText(step: string, reason: string): string {
  return `Skipped step '${step}': ${reason}.`;
}

/** An `optional` step that did not complete: the run goes on. */
export function optionalFailureText(step: string, cause: string): string {
  return `Step '${step}' failed: ${cause}. It is optional, so the workflow goes on without it.`;
}

export function failureText(step: string, cause: string): string {
  return `Step '${step}' failed: ${cause}. The workflow stopped here.`;
}

/**
 * The last message of a run the user stopped by declining a question: the LLM must not take the
 * refusal as a gap to fill by doing the remaining steps itself.
 */
export function declinedText(plan: WorkflowPlan, from: number, reason: string): string {
  const remaining = plan.steps
    .slice(from)
    .map((step) => `'${step.model.name}'`)
    .join(', ');
  return (
    `The workflow stopped: ${reason}. The user's answer is final. ` +
    `Do not do the remaining steps (${remaining}) on the user's behalf: do not call their tools or look for the answer another way. ` +
    `Tell the user the workflow was cancelled; run it again only if the user asks.`
  );
}
