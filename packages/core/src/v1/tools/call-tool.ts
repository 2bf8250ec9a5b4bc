import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  getParseErrorMessage,
  normalizeObjectSchema,
  safeParse,
  safeParseAsync,
  type AnySchema,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ValidatedInput } from '../../engine';
import type { RequestExtra } from '../request-extra';

type ParseResult = ReturnType<typeof safeParse>;

const normalized = new WeakMap<AnySchema, AnySchema>();

/** The schema `tools/call` parses with, normalized once per schema object (update() replaces the object). */
function objectSchema(schema: AnySchema): AnySchema {
  let object = normalized.get(schema);
  if (!object) {
    object = normalizeObjectSchema(schema) ?? schema;
    normalized.set(schema, object);
  }
  return object;
}

/**
 * Parses as `tools/call` does, with the same result: synchronously when the schema allows (no
 * promise on the hot path), asynchronously when it has async refinements or transforms.
 */
export function parseWith(schema: AnySchema, data: unknown): ParseResult | Promise<ParseResult> {
  try {
    return safeParse(schema, data);
  } catch {
    return safeParseAsync(schema, data);
  }
}

function toInput(name: string, parsed: ParseResult): ValidatedInput {
  return parsed.success
    ? { ok: true, args: parsed.data }
    : { ok: false, message: `Invalid arguments for tool ${name}: ${getParseErrorMessage(parsed.error)}` };
}

/** Validates arguments by the tool's input schema exactly as `tools/call` does (same SDK helpers, same message). */
export function validateToolInput(
  tool: RegisteredTool,
  name: string,
  args: Record<string, unknown>,
): ValidatedInput | Promise<ValidatedInput> {
  if (!tool.inputSchema) return { ok: true, args: undefined };
  const parsed = parseWith(objectSchema(tool.inputSchema), args);
  return parsed instanceof Promise ? parsed.then((result) => toInput(name, result)) : toInput(name, parsed);
}

/**
 * Runs a tool's handler in process with the prompt request's `extra`, as `tools/call` would run it.
 * Returns what the handler returns (check it with `checkToolResult`); throws what it throws.
 */
export function invokeTool(tool: RegisteredTool, name: string, args: unknown, extra: RequestExtra): unknown {
  const handler = tool.handler as unknown as ((...params: unknown[]) => unknown) & { createTask?: unknown };
  if (typeof handler !== 'function' || 'createTask' in handler) {
    throw new Error(`tool ${name} is a task-based tool, which workflow steps cannot run in process`);
  }
  return tool.inputSchema ? handler(args, extra) : handler(extra);
}

/** Checks a handler's result as `tools/call` does: a CallToolResult, with structured content matching the output schema. */
export function checkToolResult(tool: RegisteredTool, name: string, value: unknown): CallToolResult | Promise<CallToolResult> {
  const result = value as CallToolResult;
  if (!result || typeof result !== 'object' || !Array.isArray(result.content)) {
    throw new Error(`tool ${name} returned ${JSON.stringify(result) ?? 'undefined'}, which is not a CallToolResult ({ content: [...] })`);
  }
  if (!tool.outputSchema || result.isError) return result;
  if (!result.structuredContent) throw new Error(`tool ${name} has an output schema but returned no structured content`);
  const check = (parsed: ParseResult): CallToolResult => {
    if (!parsed.success) throw new Error(`invalid structured content for tool ${name}: ${getParseErrorMessage(parsed.error)}`);
    return result;
  };
  const parsed = parseWith(objectSchema(tool.outputSchema), result.structuredContent);
  return parsed instanceof Promise ? parsed.then(check) : check(parsed);
}
