import type { AdapterLine } from '../adapter-line';
import type { SchemaVerdict } from '../schema-verdict';
import {
  argumentsShapeProblem,
  declaredArguments,
  invalidArgumentsMessage,
  issueTexts,
  ownArguments,
  unknownArgumentProblems,
} from './prompt-argument-problems';

type Arguments = Record<string, unknown> | undefined;

/**
 * Checks a `prompts/get` request's arguments against the prompt's schema (or a `tools/call`'s
 * against a workflow tool's) and returns the parsed values. Anything wrong — a missing required
 * argument, a value that is not a string, an `arguments` that is not an object, or (for workflows)
 * an argument the workflow does not declare — is the line's `InvalidParams` error that names the
 * argument, and what was called (`prompt get_hint`, `tool get_hint`).
 *
 * @example
 * ```ts
 * const args = await parsePromptArguments(line, 'prompt', 'get_hint', handle.argsSchema, { player: 'bob' }, true);
 * ```
 */
export function parsePromptArguments(
  line: AdapterLine<unknown, unknown>,
  face: 'prompt' | 'tool',
  name: string,
  schema: object | undefined,
  raw: unknown,
  rejectUnknown: boolean,
): Arguments | Promise<Arguments> {
  const invalid = (problems: string[]) => line.invalidParams(invalidArgumentsMessage(`${face} ${name}`, problems));
  const shapeProblem = argumentsShapeProblem(raw);
  if (shapeProblem) throw invalid([shapeProblem]);
  const { shape, declared } = shapeOf(line, schema);
  const given = (raw ?? {}) as Record<string, unknown>;
  const problems = rejectUnknown ? unknownArgumentProblems(given, shape, declared) : [];
  const declaredGiven = declaredArguments(given, declared);
  if (!schema) {
    if (problems.length) throw invalid(problems);
    return undefined;
  }
  const finish = (verdict: SchemaVerdict): Arguments => {
    if (!verdict.success) problems.push(...issueTexts(verdict.issues, declaredGiven, shape));
    if (problems.length || !verdict.success) throw invalid(problems);
    return ownArguments(verdict.data);
  };
  const verdict = line.parseSchema(schema, declaredGiven);
  return verdict instanceof Promise ? verdict.then(finish) : finish(verdict);
}

const shapes = new WeakMap<object, { shape: Record<string, unknown>; declared: string[] }>();

/**
 * The declared arguments of a prompt schema, read once per schema object (whichever line reads it:
 * both read a zod object's own shape).
 */
function shapeOf(line: AdapterLine<unknown, unknown>, schema: object | undefined): { shape: Record<string, unknown>; declared: string[] } {
  if (!schema) return { shape: {}, declared: [] };
  let entry = shapes.get(schema);
  if (!entry) {
    const shape = line.objectShape(schema);
    entry = { shape, declared: Object.keys(shape) };
    shapes.set(schema, entry);
  }
  return entry;
}
