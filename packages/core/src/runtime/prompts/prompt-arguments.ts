import type { RegisteredPrompt } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getObjectShape, safeParseAsync } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { didYouMean } from '../../rules';

/**
 * Checks a `prompts/get` request's arguments against the prompt's schema and returns the parsed
 * values. Anything wrong — a missing required argument, a value that is not a string, an
 * `arguments` that is not an object, or (for workflows) an argument the prompt does not declare —
 * is an `InvalidParams` error that names the argument.
 */
export async function parsePromptArguments(
  prompt: string,
  handle: RegisteredPrompt,
  raw: unknown,
  rejectUnknown: boolean,
): Promise<Record<string, unknown> | undefined> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw invalid(prompt, [`'arguments' must be an object of strings, not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`]);
  }
  const schema = handle.argsSchema;
  const given = (raw ?? {}) as Record<string, unknown>;
  const shape = (schema && getObjectShape(schema)) || {};
  const declared = Object.keys(shape);
  const problems: string[] = [];
  if (rejectUnknown) {
    for (const name of Object.keys(given)) {
      if (!declared.includes(name)) problems.push(`unknown argument ${quote(name)}.${didYouMean(name, declared)} Declared: ${declared.join(', ') || '(none)'}`);
    }
  }
  if (!schema) {
    if (problems.length) throw invalid(prompt, problems);
    return undefined;
  }
  const parsed = await safeParseAsync(schema, given);
  if (!parsed.success) problems.push(...issueTexts(parsed.error, given, shape));
  if (problems.length || !parsed.success) throw invalid(prompt, problems);
  return parsed.data as Record<string, unknown>;
}

function issueTexts(error: unknown, given: Record<string, unknown>, shape: Record<string, unknown>): string[] {
  const issues = (error as { issues?: { path?: PropertyKey[]; message?: string }[] }).issues ?? [];
  return issues.map((issue) => {
    const name = String(issue.path?.[0] ?? '');
    if (!name) return issue.message ?? 'invalid arguments';
    if (given[name] === undefined) {
      const description = (shape[name] as { description?: string } | undefined)?.description;
      return `argument ${quote(name)} is required${description ? ` (${description})` : ''}`;
    }
    return `argument ${quote(name)} is invalid: ${issue.message ?? `${describe(given[name])} does not match its schema`}`;
  });
}

/** `'name'`, or a JSON string when the name itself holds a quote, so it is never ambiguous. */
function quote(name: string): string {
  return /['\\\n]/.test(name) ? JSON.stringify(name) : `'${name}'`;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function invalid(prompt: string, problems: string[]): McpError {
  return new McpError(ErrorCode.InvalidParams, `Invalid arguments for prompt ${prompt}: ${problems.join('; ')}`);
}
