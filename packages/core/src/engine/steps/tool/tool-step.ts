import type { ToolAction } from '../../../model/actions/tool-action';
import type { Host } from '../../host';
import type { PlannedStep } from '../../plan/plan-workflow';
import type { ExecutionScope } from '../../plan/resolve-source';
import { REDACTED } from '../../redaction/redactor';
import { pendingReason } from '../pending-reason';
import type { StepKind } from '../step-kind';
import { argumentsJson, shownArguments } from './shown-arguments';
import { runToolStep } from './run-tool-step';
import { ownRecord } from '../../../util/own-record';

/** A step that calls a tool with arguments from data sources; its value is the tool's result. */
export const toolStep: StepKind<ToolAction> = {
  kind: 'tool',
  run: runToolStep,
  planLine(step, action, host) {
    const description = host.findTool(action.tool)?.description;
    return `${step.model.name}: call tool ${action.tool}${description ? ` — ${description}` : ''}`;
  },
  handoffDetails,
};

function handoffDetails(
  step: PlannedStep,
  action: ToolAction,
  scope: ExecutionScope,
  host: Host,
  client: (text: string) => string,
): string {
  const known = ownRecord<unknown>();
  const pending: string[] = [];
  const tool = host.findTool(action.tool);
  const inputs = tool ? host.toolInputs(tool) : [];
  for (const argument of step.args) {
    // Only what the tool takes: an argument it does not have would mislead the LLM into passing it.
    if (tool && inputs.length && !inputs.some((input) => input.name === argument.name)) continue;
    const resolved = argument.resolve(scope);
    if (resolved.ok) known[argument.name] = argument.sensitive ? REDACTED : resolved.value;
    else pending.push(`${argument.name} (${pendingReason(argument.source, resolved.reason, scope, client)})`);
  }
  const missing = inputs
    .filter((input) => input.required && !step.args.some((argument) => argument.name === input.name))
    .map(
      (input) =>
        `${input.name} (${[input.type, 'required'].filter(Boolean).join(', ')}${input.description ? `: ${input.description}` : ''})`,
    );
  let text = '';
  // Handoffs are rare: the arguments are always written piece by piece, `client` marking the client's (a no-op when the run marks nothing).
  if (Object.keys(known).length)
    text += `\n   Known arguments: ${argumentsJson(step, shownArguments(step, known), { marking: true, client })}`;
  if (pending.length) text += `\n   Arguments still to resolve: ${pending.join('; ')}`;
  if (missing.length) text += `\n   Arguments you must decide: ${missing.join('; ')}`;
  return text;
}
