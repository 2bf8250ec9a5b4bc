/**
 * The message of whatever a handler threw, for a trace line: an Error's message, a plain object's
 * own string `message`, a string, else the value as JSON — never `[object Object]`, never a throw
 * (an object without a prototype, a BigInt, a cycle). Not cut here: what leaves the server is cut
 * after redaction (`boundStrings`, the trace's size bound), so no part of a secret survives a cut.
 *
 * @example
 * ```ts
 * errorMessage({ message: 'rate limited' });                              // 'rate limited'
 * errorMessage(Object.assign(Object.create(null), { code: 'E42' }));      // '{"code":"E42"}'
 * ```
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = Object.hasOwn(error, 'message') ? (error as { message: unknown }).message : undefined;
    if (typeof message === 'string' && message) return message;
    try {
      const json = JSON.stringify(error);
      if (json && json !== '{}') return json;
    } catch {
      // A cycle or a BigInt inside: say what kind of value it was instead.
    }
    return `a thrown ${Array.isArray(error) ? 'array' : 'object'} without a message`;
  }
  try {
    return String(error);
  } catch {
    return `a thrown ${typeof error}`;
  }
}
