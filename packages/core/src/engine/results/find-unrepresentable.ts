import { MAX_VALUE_DEPTH, TOO_DEEP } from './value-depth';

/**
 * Where a value stops being JSON, or undefined when all of it is: a BigInt (JSON.stringify throws),
 * a cycle (it throws too), or nesting deeper than `MAX_VALUE_DEPTH` (it overflows the stack). Paths
 * read like `structuredContent.rows[3].id`.
 *
 * @example
 * ```ts
 * findUnrepresentable({ count: 1n }, 'structuredContent'); // 'structuredContent.count is a BigInt'
 * ```
 */
export function findUnrepresentable(value: unknown, path: string): string | undefined {
  const problem = walk(value, path, new Map());
  return problem === TOO_DEEP ? `${path} is ${TOO_DEEP}` : problem;
}

function walk(value: unknown, path: string, ancestors: Map<object, string>): string | undefined {
  if (typeof value === 'bigint') return `${path} is a BigInt`;
  if (typeof value !== 'object' || value === null) return undefined;
  // The ancestors are the path from the root: too many, and the walk itself would overflow.
  if (ancestors.size >= MAX_VALUE_DEPTH) return TOO_DEEP;
  const seenAt = ancestors.get(value);
  if (seenAt !== undefined) return `${path} refers back to ${seenAt} (a cycle)`;
  // toJSON decides what is sent (a Date, a Buffer): check that instead.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
  ancestors.set(value, path);
  let problem: string | undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length && !problem; index += 1) problem = walk(value[index], `${path}[${index}]`, ancestors);
  } else {
    for (const key of Object.keys(value)) {
      problem = walk((value as Record<string, unknown>)[key], `${path}.${key}`, ancestors);
      if (problem) break;
    }
  }
  ancestors.delete(value);
  return problem;
}
