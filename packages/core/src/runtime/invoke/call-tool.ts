import type { RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getParseErrorMessage, normalizeObjectSchema, safeParseAsync } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestExtra } from '../request-extra';

/** The outcome of validating a step's arguments against the tool's input schema. */
export type ValidatedInput = { readonly ok: true; readonly args: unknown } | { readonly ok: false; readonly message: string };

/** Validates arguments by the tool's input schema exactly as `tools/call` does (same SDK helpers, same message). */
export async function validateToolInput(tool: RegisteredTool, name: string, args: Record<string, unknown>): Promise<ValidatedInput> {
  if (!tool.inputSchema) return { ok: true, args: undefined };
  const schema = normalizeObjectSchema(tool.inputSchema) ?? tool.inputSchema;
  const parsed = await safeParseAsync(schema, args);
  if (parsed.success) return { ok: true, args: parsed.data };
  return { ok: false, message: `Invalid arguments for tool ${name}: ${getParseErrorMessage(parsed.error)}` };
}

/**
 * Runs a tool's handler in process with the prompt request's `extra`, as `tools/call` would run it,
 * and checks structured output against the output schema the same way. Throws what the handler throws.
 */
export async function callTool(tool: RegisteredTool, name: string, args: unknown, extra: RequestExtra): Promise<CallToolResult> {
  const handler = tool.handler as unknown as ((...params: unknown[]) => unknown) & { createTask?: unknown };
  if (typeof handler !== 'function' || 'createTask' in handler) {
    throw new Error(`tool ${name} is a task-based tool, which workflow steps cannot run in process`);
  }
  const result = (await (tool.inputSchema ? handler(args, extra) : handler(extra))) as CallToolResult;
  if (!result || typeof result !== 'object' || !Array.isArray(result.content)) {
    throw new Error(`tool ${name} returned ${JSON.stringify(result) ?? 'undefined'}, which is not a CallToolResult ({ content: [...] })`);
  }
  if (tool.outputSchema && !result.isError) {
    if (!result.structuredContent) throw new Error(`tool ${name} has an output schema but returned no structured content`);
    const parsed = await safeParseAsync(normalizeObjectSchema(tool.outputSchema) ?? tool.outputSchema, result.structuredContent);
    if (!parsed.success) throw new Error(`invalid structured content for tool ${name}: ${getParseErrorMessage(parsed.error)}`);
  }
  return result;
}
