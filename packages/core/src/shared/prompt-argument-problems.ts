import { didYouMean } from '../rules';

/** One problem a schema found in a value, as zod and Standard Schema report it. */
export interface SchemaIssue {
  readonly path?: readonly unknown[];
  readonly message?: string;
}

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

/** An argument the prompt does not declare, with the closest declared name. */
export function unknownArgumentProblems(given: Record<string, unknown>, shape: Record<string, unknown>, declared: readonly string[]): string[] {
  const problems: string[] = [];
  for (const name in given) {
    if (Object.hasOwn(given, name) && !Object.hasOwn(shape, name)) problems.push(`unknown argument ${quote(name)}.${didYouMean(name, declared)} Declared: ${declared.join(', ') || '(none)'}`);
  }
  return problems;
}

/** The schema's issues, each naming its argument: required (with its description) or invalid. */
export function issueTexts(issues: readonly SchemaIssue[], given: Record<string, unknown>, shape: Record<string, unknown>): string[] {
  return issues.map((issue) => {
    const first = issue.path?.[0];
    const name = String((typeof first === 'object' && first !== null ? (first as { key?: unknown }).key : first) ?? '');
    if (!name) return issue.message ?? 'invalid arguments';
    if (given[name] === undefined) {
      const description = (shape[name] as { description?: string } | undefined)?.description;
      return `argument ${quote(name)} is required${description ? ` (${description})` : ''}`;
    }
    return `argument ${quote(name)} is invalid: ${issue.message ?? `${describe(given[name])} does not match its schema`}`;
  });
}

/** The message of the `InvalidParams` error. */
export function invalidArgumentsMessage(prompt: string, problems: readonly string[]): string {
  return `Invalid arguments for prompt ${prompt}: ${problems.join('; ')}`;
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
