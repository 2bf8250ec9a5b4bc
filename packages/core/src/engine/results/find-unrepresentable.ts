import { MAX_VALUE_DEPTH, TOO_DEEP } from './value-depth';

/**
 * Where a value stops being JSON, or undefined when all of it is: a BigInt (JSON.stringify throws),
 * a cycle (it throws too), or nesting deeper than `MAX_VALUE_DEPTH` (it overflows the stack). Paths
 * read like `structuredContent.rows[3].id`.
 *
 * It runs on every tool result, so a value that is fine costs no allocation: the path is only
 * written once a problem is found, and the ancestors are a stack (a set past a depth no result
 * reaches in practice, so a deep value is still checked in linear time).
 *
 * @example
 * ```ts
 * findUnrepresentable({ count: 1n }, 'structuredContent'); // 'structuredContent.count is a BigInt'
 * ```
 */
export function findUnrepresentable(value: unknown, path: string): string | undefined {
  if (typeof value === 'bigint') return `${path} is a BigInt`;
  if (typeof value !== 'object' || value === null || isPlainJson(value, 2)) return undefined;
  const walk = new Walk();
  const problem = walk.visit(value);
  return problem && problem(path, walk.keys);
}

/**
 * Whether a value is JSON for certain without a walk, looking `levels` deep: a primitive other than
 * a BigInt, or (with a level left) an object or array without `toJSON` whose entries are. Two
 * levels (a result's content blocks, most structured content) can hold no cycle and no depth; a
 * BigInt, a `toJSON` or anything deeper is left to the walk, which says where.
 */
function isPlainJson(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'bigint';
  if (levels === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) if (!isPlainJson(value[index], levels - 1)) return false;
    return true;
  }
  for (const key in value) if (Object.hasOwn(value, key) && !isPlainJson((value as Record<string, unknown>)[key], levels - 1)) return false;
  return true;
}

/** How a problem reads, given the root's path and the keys that lead to it. */
type Problem = (root: string, keys: readonly (string | number)[]) => string;

/** Ancestors kept in a plain stack up to this depth; a set (as well) past it. */
const STACK_DEPTH = 64;

class Walk {
  /** The objects from the root to the one being visited, and the keys between them. */
  private readonly ancestors: object[] = [];
  readonly keys: (string | number)[] = [];
  private deep: Set<object> | undefined = undefined;

  visit(value: object): Problem | undefined {
    // The ancestors are the path from the root: too many, and the walk itself would overflow.
    if (this.ancestors.length >= MAX_VALUE_DEPTH) return (root) => `${root} is ${TOO_DEEP}`;
    const seenAt = this.indexOf(value);
    if (seenAt >= 0) {
      const depth = this.keys.length;
      return (root, keys) => `${pathOf(root, keys, depth)} refers back to ${pathOf(root, keys, seenAt)} (a cycle)`;
    }
    // toJSON decides what is sent (a Date, a Buffer): check that instead.
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
    this.enter(value);
    const problem = Array.isArray(value) ? this.visitArray(value) : this.visitObject(value as Record<string, unknown>);
    this.leave(value);
    return problem;
  }

  private visitArray(array: readonly unknown[]): Problem | undefined {
    for (let index = 0; index < array.length; index += 1) {
      const problem = this.visitEntry(index, array[index]);
      if (problem) return problem;
    }
    return undefined;
  }

  private visitObject(object: Record<string, unknown>): Problem | undefined {
    for (const key in object) {
      if (!Object.hasOwn(object, key)) continue;
      const problem = this.visitEntry(key, object[key]);
      if (problem) return problem;
    }
    return undefined;
  }

  private visitEntry(key: string | number, entry: unknown): Problem | undefined {
    if (typeof entry === 'bigint') {
      this.keys.push(key);
      const depth = this.keys.length;
      return (root, keys) => `${pathOf(root, keys, depth)} is a BigInt`;
    }
    if (typeof entry !== 'object' || entry === null) return undefined;
    this.keys.push(key);
    const problem = this.visit(entry);
    // On a problem the keys stay: they are its path.
    if (!problem) this.keys.pop();
    return problem;
  }

  private indexOf(value: object): number {
    if (this.deep && !this.deep.has(value)) return -1;
    return this.ancestors.lastIndexOf(value);
  }

  private enter(value: object): void {
    this.ancestors.push(value);
    if (this.deep) this.deep.add(value);
    else if (this.ancestors.length > STACK_DEPTH) this.deep = new Set(this.ancestors);
  }

  private leave(value: object): void {
    this.ancestors.pop();
    this.deep?.delete(value);
  }
}

/** `root.rows[3].id`: the path through the first `depth` keys. */
function pathOf(root: string, keys: readonly (string | number)[], depth: number): string {
  let path = root;
  for (let index = 0; index < depth; index += 1) {
    const key = keys[index];
    path += typeof key === 'number' ? `[${key}]` : `.${key}`;
  }
  return path;
}
