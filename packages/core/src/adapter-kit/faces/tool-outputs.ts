import { formatCount } from '../../engine';

/** A workflow tool's `outputs` as bounded, and the bindings whose values were left out for size. */
export interface BoundedOutputs {
  readonly outputs: Readonly<Record<string, unknown>>;
  /** The bindings whose values a note replaced to fit (in the order they were replaced): none when all fit. */
  readonly truncated: readonly string[];
}

/**
 * A workflow tool's `outputs` held to `maxBytes` of JSON (its share of the result, which
 * `maxTraceBytes` — `limitBytes` — bounds as a whole): when they do not fit, the largest values are
 * replaced, one by one, by a note saying what is not shown (a value is JSON, which cannot be cut in
 * half), and `truncated` names them; a value JSON cannot hold (a BigInt, a cycle) is replaced by a
 * note too. The outputs come redacted; a note names only the binding and a size. Returns `outputs`
 * itself when it fits.
 *
 * @example
 * ```ts
 * boundOutputs({ page: 'x'.repeat(10_000), id: 7 }, 4_096);
 * // { outputs: { page: "[truncated by mcpflow: the value of 'page' (10,002 bytes of JSON) is not shown; …]", id: 7 }, truncated: ['page'] }
 * ```
 */
export function boundOutputs(outputs: Readonly<Record<string, unknown>>, maxBytes: number, limitBytes = maxBytes): BoundedOutputs {
  const json = jsonOf(outputs);
  // Cheap first: no UTF-16 unit takes more than 3 bytes of UTF-8.
  if (json !== undefined && (!Number.isFinite(maxBytes) || json.length * 3 <= maxBytes || Buffer.byteLength(json) <= maxBytes))
    return { outputs, truncated: [] };
  const bounded: Record<string, unknown> = { ...outputs };
  const sized: { name: string; bytes: number }[] = [];
  let total = 2;
  for (const name of Object.keys(outputs)) {
    const value = jsonOf(outputs[name]);
    if (value === undefined && outputs[name] !== undefined)
      bounded[name] = `[not shown by mcpflow: the value of '${name}' cannot be represented as JSON]`;
    else sized.push({ name, bytes: value === undefined ? 0 : Buffer.byteLength(value) });
    total += bytesOf(name) + 1 + (value === undefined ? bytesOf(bounded[name]) : Buffer.byteLength(value)) + 1;
  }
  const truncated: string[] = [];
  for (const { name, bytes } of sized.sort((a, b) => b.bytes - a.bytes)) {
    if (total <= maxBytes) break;
    const note = `[truncated by mcpflow: the value of '${name}' (${formatCount(bytes)} bytes of JSON) is not shown; the result is limited to ${formatCount(limitBytes)} bytes (maxTraceBytes)]`;
    bounded[name] = note;
    truncated.push(name);
    total -= bytes - bytesOf(note);
  }
  return { outputs: bounded, truncated };
}

function jsonOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}
