/** The longest error message a trace line, `_meta` or an MCP error carries from a handler or a client. */
export const MAX_MESSAGE_CHARACTERS = 2_000;

/**
 * A text cut to `max` characters, saying how much was left out, so a hostile or careless value
 * cannot blow up a message: `aaaa… (1,048,576 characters)`.
 *
 * @example
 * ```ts
 * boundText('x'.repeat(5000), 10); // 'xxxxxxxxxx… (5,000 characters)'
 * ```
 */
export function boundText(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair: a lone half is not valid UTF-16 on the wire.
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return `${text.slice(0, end)}… (${formatCount(text.length)} characters)`;
}

/**
 * A JSON-like value (objects, arrays) with every string cut by `boundText`. Applied to what leaves
 * the server (`_meta`, `onStep` events) only **after** redaction: a secret cut in two before
 * redaction would no longer match, and its first part would go out in clear. Copies only what
 * holds a string that was cut (the objects and arrays on its way): a value whose strings all fit
 * comes back as it is, so bounding costs nothing in the common case.
 *
 * @example
 * ```ts
 * boundStrings({ reason: 'x'.repeat(5000) }, 10); // { reason: 'xxxxxxxxxx… (5,000 characters)' }
 * ```
 */
export function boundStrings<T>(value: T, max: number): T {
  if (typeof value === 'string') return boundText(value, max) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index += 1) {
      const entry: unknown = value[index];
      const bounded = boundStrings(entry, max);
      if (bounded !== entry) (copy ??= value.slice())[index] = bounded;
    }
    return (copy ?? value) as T;
  }
  const object = value as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key in object) {
    if (!Object.hasOwn(object, key)) continue;
    const entry = object[key];
    const bounded = boundStrings(entry, max);
    if (bounded !== entry) (copy ??= { ...object })[key] = bounded;
  }
  return (copy ?? object) as T;
}

/**
 * `1,048,576`: counts in messages read at a glance. Grouped by hand rather than with
 * `toLocaleString`, whose first call loads ICU's number formatting (~10 ms) and each later one
 * still costs tens of µs.
 */
export function formatCount(count: number): string {
  if (!Number.isSafeInteger(count)) return String(count);
  const digits = String(Math.abs(count));
  let grouped = digits.slice(0, digits.length % 3 || 3);
  for (let index = grouped.length; index < digits.length; index += 3) grouped += `,${digits.slice(index, index + 3)}`;
  return count < 0 ? `-${grouped}` : grouped;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
