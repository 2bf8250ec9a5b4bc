import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CompiledStep, CompiledWorkflow } from '../compile/compile-workflow';
import type { ServerRegistry } from '../registry/server-registry';
import { REDACTED } from './redactor';

/** The user's intent: the workflow's description and the arguments given, in declared order. */
export function intentText(workflow: CompiledWorkflow, args: Readonly<Record<string, string | undefined>>): string {
  const { model } = workflow;
  let text = model.description ?? `Run the ${model.name} workflow.`;
  let listed = '';
  for (const argument of model.arguments) {
    const value = args[argument.name];
    if (value === undefined) continue;
    listed += `\n- ${argument.name}: ${workflow.sensitiveArguments.has(argument.name) ? REDACTED : value}`;
  }
  if (listed) text += `\nArguments:${listed}`;
  return text;
}

/** The assistant's plan: every step, with its tool's current description. */
export function planText(workflow: CompiledWorkflow, registry: ServerRegistry): string {
  let text = 'Plan:';
  for (const step of workflow.steps) text += `\n${step.index + 1}. ${stepSummary(step, registry)}`;
  return text;
}

/** `analyze: call tool analyze_code — Analyze source code` or `walkthrough: read resource if://…`. */
export function stepSummary(step: CompiledStep, registry: ServerRegistry): string {
  const { model } = step;
  if (model.tool === undefined) return `${model.name}: read resource ${model.resource}`;
  const description = registry.tools.get(model.tool)?.description;
  return `${model.name}: call tool ${model.tool}${description ? ` — ${description}` : ''}`;
}

export function toolCallText(tool: string, args: Record<string, unknown>): string {
  return `Calling tool ${tool} with arguments: ${JSON.stringify(args)}`;
}

/** The tool's own text, or its structured content as JSON when it sent no text. */
export function toolResultMessage(tool: string, result: CallToolResult, text: string): string {
  const body = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '(no text content)');
  return `Result of ${tool}:\n${body}`;
}

export function resourceReadText(uri: string): string {
  return `Reading resource ${uri}`;
}

export function failureText(step: string, cause: string): string {
  return `Step '${step}' failed: ${cause}. The workflow stopped here.`;
}

/** The message of whatever was thrown, for a trace line. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
