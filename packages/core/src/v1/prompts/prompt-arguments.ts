import type { RegisteredPrompt } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getObjectShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { didYouMean } from '../../rules';
import { parseWith } from '../tools/call-tool';

/**
 * Checks a `prompts/get` request's arguments against the prompt's schema and returns the parsed
 * values. Anything wrong — a missing required argument, a value that is not a string, an
 * `arguments` that is not an object, or (for workflows) an argument the prompt does not declare —
 * is an `InvalidParams` error that names the argument.
 */
export function parsePromptArguments(
  prompt: string,
  handle: RegisteredPrompt,
  raw: unknown,
  rejectUnknown: boolean,
): Arguments | Promise<Arguments> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    throw invalid(prompt, [`'arguments' must be an object of strings, not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`]);
  }
  const schema = handle.argsSchema;
  const given = (raw ?? {}) as Record<string, unknown>;
  const { shape, declared } = shapeOf(schema);
  const problems: string[] = [];
  if (rejectUnknown) {
    for (const name in given) {
      if (Object.hasOwn(given, name) && !Object.hasOwn(shape, name)) problems.push(`unknown argument ${quote(name)}.${didYouMean(name, declared)} Declared: ${declared.join(', ') || '(none)'}`);
    }
  }
  if (!schema) {
    if (problems.length) throw invalid(prompt, problems);
    return undefined;
  }
  const finish = (parsed: Awaited<ReturnType<typeof parseWith>>): Arguments => {
    if (!parsed.success) problems.push(...issueTexts(parsed.error, given, shape));
    if (problems.length || !parsed.success) throw invalid(prompt, problems);
    return parsed.data as Record<string, unknown>;
  };
  const parsed = parseWith(schema, given);
  return parsed instanceof Promise ? parsed.then(finish) : finish(parsed);
}

type Arguments = Record<string, unknown> | undefined;

const shapes = new WeakMap<object, { shape: Record<string, unknown>; declared: string[] }>();

/** The declared arguments of a prompt schema, read once per schema object. */
function shapeOf(schema: RegisteredPrompt['argsSchema']): { shape: Record<string, unknown>; declared: string[] } {
  if (!schema) return { shape: {}, declared: [] };
  let entry = shapes.get(schema);
  if (!entry) {
    const shape = getObjectShape(schema) ?? {};
    entry = { shape, declared: Object.keys(shape) };
    shapes.set(schema, entry);
  }
  return entry;
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
