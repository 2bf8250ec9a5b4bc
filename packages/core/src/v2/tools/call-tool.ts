import { isInputRequiredResult, type CallToolResult, type RegisteredTool } from '@modelcontextprotocol/server';
import type { ToolResult, ValidatedInput } from '../../engine';
import type { RequestContext } from '../request-context';
import { issuesText, validateWith, type SchemaResult } from './standard-schema';

function toInput(name: string, parsed: SchemaResult): ValidatedInput {
  return parsed.success
    ? { ok: true, args: parsed.data }
    : { ok: false, message: `Invalid arguments for tool ${name}: ${issuesText(parsed.issues)}` };
}

/** Validates arguments by the tool's input schema as `tools/call` does (the same Standard Schema, the same issue text). */
export function validateToolInput(
  tool: RegisteredTool,
  name: string,
  args: Record<string, unknown>,
): ValidatedInput | Promise<ValidatedInput> {
  if (!tool.inputSchema) return { ok: true, args: undefined };
  const parsed = validateWith(tool.inputSchema, args);
  return parsed instanceof Promise ? parsed.then((result) => toInput(name, result)) : toInput(name, parsed);
}

/**
 * Runs a tool's handler in process with the prompt request's `ctx`, as `tools/call` would run it.
 * Returns what the handler returns (check it with `checkToolResult`); throws what it throws.
 */
export function invokeTool(tool: RegisteredTool, args: unknown, ctx: RequestContext): unknown {
  const handler = tool.handler as (...params: unknown[]) => unknown;
  return tool.inputSchema ? handler(args, ctx) : handler(ctx);
}

/** Checks a handler's result as `tools/call` does: a CallToolResult, with structured content matching the output schema. */
export function checkToolResult(tool: RegisteredTool, name: string, value: unknown): ToolResult | Promise<ToolResult> {
  if (isInputRequiredResult(value)) {
    throw new Error(`tool ${name} asked the client for input (input_required), which a workflow step cannot answer`);
  }
  const result = value as CallToolResult;
  if (!result || typeof result !== 'object' || !Array.isArray(result.content)) {
    throw new Error(`tool ${name} returned ${JSON.stringify(result) ?? 'undefined'}, which is not a CallToolResult ({ content: [...] })`);
  }
  if (!tool.outputSchema || result.isError) return result as ToolResult;
  if (result.structuredContent === undefined) throw new Error(`tool ${name} has an output schema but returned no structured content`);
  const check = (parsed: SchemaResult): ToolResult => {
    if (!parsed.success) throw new Error(`invalid structured content for tool ${name}: ${issuesText(parsed.issues)}`);
    return result as ToolResult;
  };
  const parsed = validateWith(tool.outputSchema, result.structuredContent);
  return parsed instanceof Promise ? parsed.then(check) : check(parsed);
}
