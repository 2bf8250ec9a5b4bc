import { bindingOf, type DataSource } from '../../model';
import type { CompiledStep, CompiledWorkflow } from '../compile/compile-workflow';
import type { ExecutionScope } from '../compile/resolve-source';
import { toolInputs } from '../invoke/tool-inputs';
import type { ServerRegistry } from '../registry/server-registry';
import { stepSummary } from './messages';
import { REDACTED } from './redactor';

/**
 * The assistant message that hands the rest of the workflow to the client's LLM: why the server
 * stopped, then each remaining step with the arguments already known and those still needed.
 */
export function handoffText(
  workflow: CompiledWorkflow,
  from: CompiledStep,
  reason: string,
  scope: ExecutionScope,
  registry: ServerRegistry,
): string {
  let text = `I cannot complete step '${from.model.name}' on the server: ${reason}.\nThe remaining steps are yours to complete, in order:`;
  for (const step of workflow.steps.slice(from.index)) {
    text += `\n${step.index + 1}. ${stepSummary(step, registry)}`;
    text += step.model.tool === undefined ? resourceDetails(step, scope) : toolDetails(step, scope, registry);
  }
  return `${text}\nUse the guidance and resources above; call each tool yourself once its arguments are known.`;
}

function toolDetails(step: CompiledStep, scope: ExecutionScope, registry: ServerRegistry): string {
  const known: Record<string, unknown> = {};
  const pending: string[] = [];
  for (const argument of step.args) {
    const resolved = argument.resolve(scope);
    if (resolved.ok) known[argument.name] = argument.sensitive ? REDACTED : resolved.value;
    else pending.push(`${argument.name} (${pendingReason(argument.source, resolved.reason, scope)})`);
  }
  const tool = step.model.tool === undefined ? undefined : registry.tools.get(step.model.tool);
  const missing = (tool ? toolInputs(tool) : [])
    .filter((input) => input.required && !step.args.some((argument) => argument.name === input.name))
    .map((input) => `${input.name} (${[input.type, 'required'].filter(Boolean).join(', ')}${input.description ? `: ${input.description}` : ''})`);
  let text = '';
  if (Object.keys(known).length) text += `\n   Known arguments: ${JSON.stringify(known)}`;
  if (pending.length) text += `\n   Arguments still to resolve: ${pending.join('; ')}`;
  if (missing.length) text += `\n   Arguments you must decide: ${missing.join('; ')}`;
  return text;
}

function resourceDetails(step: CompiledStep, scope: ExecutionScope): string {
  const pending: string[] = [];
  for (const binding of step.templateBindings) {
    const resolved = binding.resolve(scope);
    if (!resolved.ok) pending.push(`{${binding.variable}} (${pendingReason(binding.source, resolved.reason, scope)})`);
  }
  return pending.length ? `\n   URI variables still to resolve: ${pending.join('; ')}` : '';
}

/** Why a value is not known yet: a binding a remaining step will produce, or the resolver's own reason. */
function pendingReason(source: DataSource, reason: string, scope: ExecutionScope): string {
  const binding = bindingOf(source);
  return binding !== undefined && !scope.bindings.has(binding) ? `from the result bound as '${binding}' by an earlier remaining step` : reason;
}
