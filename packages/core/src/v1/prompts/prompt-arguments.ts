import type { RegisteredPrompt } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getObjectShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MAX_MESSAGE_CHARACTERS, boundText, formatCount } from '../../engine/text/bounded-text';
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
  const { shape, declared } = shapeOf(schema);
  const given = declaredArguments((raw ?? {}) as Record<string, unknown>, declared);
  const problems: string[] = rejectUnknown ? unknownArgumentProblems((raw ?? {}) as Record<string, unknown>, shape, declared) : [];
  if (!schema) {
    if (problems.length) throw invalid(prompt, problems);
    return undefined;
  }
  const finish = (parsed: Awaited<ReturnType<typeof parseWith>>): Arguments => {
    if (!parsed.success) problems.push(...issueTexts(parsed.error, given, shape));
    if (problems.length || !parsed.success) throw invalid(prompt, problems);
    return Object.assign(Object.create(null), parsed.data) as Record<string, unknown>;
  };
  const parsed = parseWith(schema, given);
  return parsed instanceof Promise ? parsed.then(finish) : finish(parsed);
}

type Arguments = Record<string, unknown> | undefined;

/** Unknown names shown one by one, each with a suggestion; beyond that, a count. */
const UNKNOWN_NAMES_SHOWN = 3;

/**
 * The problems of arguments the prompt does not declare: each named (with "did you mean") when
 * there are a few, the first few and a count when there are many, so a hostile map of 380,000 keys
 * gets a short error after one scan.
 */
function unknownArgumentProblems(given: Record<string, unknown>, shape: Record<string, unknown>, declared: readonly string[]): string[] {
  const unknown: string[] = [];
  let count = 0;
  for (const name of Object.keys(given)) {
    if (Object.hasOwn(shape, name)) continue;
    count += 1;
    if (unknown.length <= UNKNOWN_NAMES_SHOWN) unknown.push(name);
  }
  const list = declared.join(', ') || '(none)';
  if (count <= UNKNOWN_NAMES_SHOWN) return unknown.map((name) => `unknown argument ${quote(name)}.${didYouMean(name, declared)} Declared: ${list}`);
  const shown = unknown.slice(0, UNKNOWN_NAMES_SHOWN).map(quote).join(', ');
  return [`unknown arguments ${shown} and ${formatCount(count - UNKNOWN_NAMES_SHOWN)} more. Declared: ${list}`];
}

/**
 * The declared arguments the request gave, in an object without a prototype: the schema never sees
 * an inherited member (an argument named \`constructor\` left out is absent, not a function), nor
 * the undeclared keys, however many there are.
 */
function declaredArguments(given: Record<string, unknown>, declared: readonly string[]): Record<string, unknown> {
  const own: Record<string, unknown> = Object.create(null);
  for (const name of declared) if (Object.hasOwn(given, name)) own[name] = given[name];
  return own;
}

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
    if (!Object.hasOwn(given, name) || given[name] === undefined) {
      const description = (shape[name] as { description?: string } | undefined)?.description;
      return `argument ${quote(name)} is required${description ? ` (${description})` : ''}`;
    }
    return `argument ${quote(name)} is invalid: ${issue.message ?? `${describe(given[name])} does not match its schema`}`;
  });
}

/** Longest part of a name shown in an error; a longer name is cut and its length given. */
const NAME_CHARACTERS_SHOWN = 40;

/** `'name'`, or a JSON string when the name itself holds a quote, so it is never ambiguous; cut when long. */
function quote(name: string): string {
  const shown = boundText(name, NAME_CHARACTERS_SHOWN);
  return /['\\\n]/.test(shown) ? JSON.stringify(shown) : `'${shown}'`;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function invalid(prompt: string, problems: string[]): McpError {
  return new McpError(ErrorCode.InvalidParams, boundText(`Invalid arguments for prompt ${prompt}: ${problems.join('; ')}`, MAX_MESSAGE_CHARACTERS));
}
