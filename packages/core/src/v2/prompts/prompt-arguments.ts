import { ProtocolError, ProtocolErrorCode, type RegisteredPrompt } from '@modelcontextprotocol/server';
import {
  argumentsShapeProblem,
  declaredArguments,
  invalidArgumentsMessage,
  issueTexts,
  ownArguments,
  unknownArgumentProblems,
} from '../../shared/prompt-argument-problems';
import { validateWith, type SchemaResult } from '../tools/standard-schema';

type Arguments = Record<string, unknown> | undefined;

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
  const finish = (parsed: SchemaResult): Arguments => {
    if (!parsed.success) problems.push(...issueTexts(parsed.issues, given, shape));
    if (problems.length || !parsed.success) throw invalid(prompt, problems);
    return ownArguments(parsed.data);
  };
  const parsed = validateWith(schema, given);
  return parsed instanceof Promise ? parsed.then(finish) : finish(parsed);
}

const shapes = new WeakMap<object, { shape: Record<string, unknown>; declared: string[] }>();

/** The declared arguments of a prompt schema (a zod object's shape), read once per schema object. */
function shapeOf(schema: RegisteredPrompt['argsSchema']): { shape: Record<string, unknown>; declared: string[] } {
  if (!schema) return { shape: {}, declared: [] };
  let entry = shapes.get(schema);
  if (!entry) {
    const candidate = (schema as { shape?: unknown }).shape;
    const shape = typeof candidate === 'object' && candidate !== null ? (candidate as Record<string, unknown>) : {};
    entry = { shape, declared: Object.keys(shape) };
    shapes.set(schema, entry);
  }
  return entry;
}

function invalid(prompt: string, problems: string[]): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, invalidArgumentsMessage(prompt, problems));
}
