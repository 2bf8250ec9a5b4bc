import type { RegisteredPrompt } from '@modelcontextprotocol/sdk/server/mcp.js';
import { getObjectShape } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  argumentsShapeProblem,
  declaredArguments,
  invalidArgumentsMessage,
  issueTexts,
  ownArguments,
  unknownArgumentProblems,
  type SchemaIssue,
} from '../../shared/prompt-argument-problems';
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
  const shapeProblem = argumentsShapeProblem(raw);
  if (shapeProblem) throw invalid(prompt, [shapeProblem]);
  const schema = handle.argsSchema;
  const { shape, declared } = shapeOf(schema);
  const problems = rejectUnknown ? unknownArgumentProblems((raw ?? {}) as Record<string, unknown>, shape, declared) : [];
  const given = declaredArguments((raw ?? {}) as Record<string, unknown>, declared);
  if (!schema) {
    if (problems.length) throw invalid(prompt, problems);
    return undefined;
  }
  const finish = (parsed: Awaited<ReturnType<typeof parseWith>>): Arguments => {
    if (!parsed.success) problems.push(...issueTexts((parsed.error as { issues?: SchemaIssue[] }).issues ?? [], given, shape));
    if (problems.length || !parsed.success) throw invalid(prompt, problems);
    return ownArguments(parsed.data);
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

function invalid(prompt: string, problems: string[]): McpError {
  return new McpError(ErrorCode.InvalidParams, invalidArgumentsMessage(prompt, problems));
}
