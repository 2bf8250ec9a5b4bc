import { formatCount } from '../text/bounded-text';

/**
 * How deeply a step value may nest: no real data comes near it, and every walk over a value (JSON,
 * redaction, sealing, the SDK's own serialization) stays far from the stack's limit below it. A
 * deeper value fails its step with a reason, instead of a stack overflow somewhere later.
 */
export const MAX_VALUE_DEPTH = 1_000;

/** Why a value cannot be a step value: the words a reason ends with. */
export const TOO_DEEP = `nested more than ${formatCount(MAX_VALUE_DEPTH)} levels deep`;

/**
 * Whether `value` nests arrays and objects more than `MAX_VALUE_DEPTH` levels deep. Walks without
 * recursion, so any depth is measured safely; stops at the first branch that is too deep.
 *
 * @example
 * ```ts
 * nestedTooDeeply(JSON.parse('['.repeat(5000) + ']'.repeat(5000))); // true
 * ```
 */
export function nestedTooDeeply(value: unknown): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length > 0) {
    const { value: next, depth } = pending.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth >= MAX_VALUE_DEPTH) return true;
    for (const item of Array.isArray(next) ? next : Object.values(next)) {
      if (typeof item === 'object' && item !== null) pending.push({ value: item, depth: depth + 1 });
    }
  }
  return false;
}

/**
 * Whether JSON text could nest too deeply: each level takes two characters at least, so a short
 * text never does, and only a long one needs {@link nestedTooDeeply} once parsed.
 */
export function jsonMayNestTooDeeply(text: string): boolean {
  return text.length > 2 * MAX_VALUE_DEPTH;
}
