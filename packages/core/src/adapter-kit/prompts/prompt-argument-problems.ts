import { MAX_MESSAGE_CHARACTERS, boundText, formatCount } from '../../engine';
import { didYouMean } from '../../rules';
import type { SchemaIssue } from '../schema-verdict';
import { ownRecord } from '../../util/own-record';

/**
 * What is wrong with a `prompts/get` request's arguments, one text an argument, so the error names
 * each: `'arguments'` that is not an object, an undeclared argument (with "did you mean"), a
 * missing required one, or one its schema rejects. Both SDK adapters build their `InvalidParams`
 * error from these texts.
 *
 * @example
 * ```ts
 * argumentsShapeProblem([]);  // "'arguments' must be an object of strings, not an array"
 * ```
 */
export function argumentsShapeProblem(raw: unknown): string | undefined {
  if (raw === undefined || (typeof raw === 'object' && raw !== null && !Array.isArray(raw))) return undefined;
  return `'arguments' must be an object of strings, not ${Array.isArray(raw) ? 'an array' : raw === null ? 'null' : typeof raw}`;
}

/** Unknown names shown one by one, each with a suggestion; beyond that, a count. */
const UNKNOWN_NAMES_SHOWN = 3;

/**
 * The arguments the prompt does not declare: each named (with the closest declared name) when there
 * are a few, the first few and a count when there are many, so a hostile map of 380,000 keys gets a
 * short error after one scan.
 */
export function unknownArgumentProblems(
  given: Record<string, unknown>,
  shape: Record<string, unknown>,
  declared: readonly string[],
): string[] {
  const unknown: string[] = [];
  let count = 0;
  for (const name in given) {
    if (!Object.hasOwn(given, name) || Object.hasOwn(shape, name)) continue;
    count += 1;
    if (unknown.length <= UNKNOWN_NAMES_SHOWN) unknown.push(name);
  }
  // The usual request: every argument declared, and no text to build.
  if (count === 0) return unknown;
  const list = declared.join(', ') || '(none)';
  if (count <= UNKNOWN_NAMES_SHOWN)
    return unknown.map((name) => `unknown argument ${quote(name)}.${didYouMean(name, declared)} Declared: ${list}`);
  return [
    `unknown arguments ${unknown.slice(0, UNKNOWN_NAMES_SHOWN).map(quote).join(', ')} and ${formatCount(count - UNKNOWN_NAMES_SHOWN)} more. Declared: ${list}`,
  ];
}

/**
 * What the schema parses: the declared arguments the request gave, in an object without a
 * prototype, so the schema never sees an inherited member (an optional argument named
 * \`constructor\` left out is absent, not Object's function), nor undeclared keys, however many.
 * When the schema's shape is unknown (`declared` empty), every own key, still without a prototype.
 */
export function declaredArguments(given: Record<string, unknown>, declared: readonly string[]): Record<string, unknown> {
  const own = ownRecord<unknown>();
  for (const name of declared.length ? declared : Object.keys(given)) if (Object.hasOwn(given, name)) own[name] = given[name];
  return own;
}

/** Parsed arguments in an object without a prototype, for the engine to read by name. */
export function ownArguments(parsed: unknown): Record<string, unknown> {
  return Object.assign(ownRecord<unknown>(), parsed);
}

/** The schema's issues, each naming its argument: required (with its description) or invalid. */
export function issueTexts(issues: readonly SchemaIssue[], given: Record<string, unknown>, shape: Record<string, unknown>): string[] {
  return issues.map((issue) => {
    const first = issue.path?.[0];
    const name = String((typeof first === 'object' && first !== null ? (first as { key?: unknown }).key : first) ?? '');
    if (!name) return issue.message ?? 'invalid arguments';
    if (!Object.hasOwn(given, name) || given[name] === undefined) {
      const description = (shape[name] as { description?: string } | undefined)?.description;
      return `argument ${quote(name)} is required${description ? ` (${description})` : ''}`;
    }
    return `argument ${quote(name)} is invalid: ${issue.message ?? `${describe(given[name])} does not match its schema`}`;
  });
}

/** The message of the `InvalidParams` error (`subject`: `prompt get_hint`, `tool get_hint`), bounded however many problems there are. */
export function invalidArgumentsMessage(subject: string, problems: readonly string[]): string {
  return boundText(`Invalid arguments for ${subject}: ${problems.join('; ')}`, MAX_MESSAGE_CHARACTERS);
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
