import type { ToolResult, ValidatedInput } from '../../engine';
import type { AdapterLine } from '../adapter-line';
import type { ToolHandle } from '../registry/handles';
import type { SchemaVerdict } from '../schema-verdict';

/**
 * Validates a step's arguments by the tool's input schema as the line's `tools/call` does: the same
 * parse, the same message, synchronously when the schema allows (no promise on the hot path).
 *
 * @example
 * ```ts
 * validateToolInput(line, tool, 'get_weather', { city: 42 }); // { ok: false, message: 'Invalid arguments for tool get_weather: …' }
 * ```
 */
export function validateToolInput(
  line: AdapterLine<unknown, unknown>,
  tool: ToolHandle,
  name: string,
  args: Record<string, unknown>,
): ValidatedInput | Promise<ValidatedInput> {
  if (!tool.inputSchema) return { ok: true, args: undefined };
  const verdict = line.parseSchema(tool.inputSchema, args);
  return verdict instanceof Promise ? verdict.then((parsed) => toInput(name, parsed)) : toInput(name, verdict);
}

function toInput(name: string, verdict: SchemaVerdict): ValidatedInput {
  return verdict.success
    ? { ok: true, args: verdict.data }
    : { ok: false, message: `Invalid arguments for tool ${name}: ${verdict.message}` };
}

/**
 * Runs a tool's handler in process with the prompt request's context, as `tools/call` would run
 * it. Returns what the handler returns (check it with `checkToolResult`); throws what it throws.
 */
export function invokeTool(tool: ToolHandle, name: string, args: unknown, context: unknown): unknown {
  const handler = tool.handler as ((...params: unknown[]) => unknown) & { createTask?: unknown };
  if (typeof handler !== 'function' || 'createTask' in handler) {
    throw new Error(`tool ${name} is a task-based tool, which workflow steps cannot run in process`);
  }
  return tool.inputSchema ? handler(args, context) : handler(context);
}

/**
 * Checks a handler's result as `tools/call` does: a `CallToolResult`, with structured content
 * matching the output schema when the tool declares one.
 */
export function checkToolResult(
  line: AdapterLine<unknown, unknown>,
  tool: ToolHandle,
  name: string,
  value: unknown,
): ToolResult | Promise<ToolResult> {
  if (line.asksForInput?.(value)) {
    throw new Error(`tool ${name} asked the client for input (input_required), which a workflow step cannot answer`);
  }
  const result = value as ToolResult;
  if (!result || typeof result !== 'object' || !Array.isArray(result.content)) {
    throw new Error(`tool ${name} returned ${JSON.stringify(result) ?? 'undefined'}, which is not a CallToolResult ({ content: [...] })`);
  }
  if (!tool.outputSchema || result.isError) return result;
  if (result.structuredContent === undefined) throw new Error(`tool ${name} has an output schema but returned no structured content`);
  const check = (verdict: SchemaVerdict): ToolResult => {
    if (!verdict.success) throw new Error(`invalid structured content for tool ${name}: ${verdict.message}`);
    return result;
  };
  const verdict = line.parseSchema(tool.outputSchema, result.structuredContent);
  return verdict instanceof Promise ? verdict.then(check) : check(verdict);
}
