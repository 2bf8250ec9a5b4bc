/**
 * An upper bound of the UTF-8 bytes of `JSON.stringify(value)`, found without building the JSON or
 * allocating: each UTF-16 unit of a string takes at most 6 bytes (`\u0000`), a number at most 24
 * characters, each key and value its quotes and separators. `Infinity` for an object with `toJSON`
 * (what it sends is its own business): a caller then measures exactly.
 *
 * @example
 * ```ts
 * jsonBytesBound({ text: 'hi' }) >= Buffer.byteLength(JSON.stringify({ text: 'hi' })); // true
 * ```
 */
export function jsonBytesBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return 6 * value.length + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'object':
      return value === null ? 4 : objectBytesBound(value);
    default:
      return 0;
  }
}

function objectBytesBound(value: object): number {
  if (Array.isArray(value)) {
    let bytes = 2;
    for (let index = 0; index < value.length; index += 1) bytes += jsonBytesBound(value[index]) + 1;
    return bytes;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return Number.POSITIVE_INFINITY;
  let bytes = 2;
  for (const key in value) {
    if (Object.hasOwn(value, key)) bytes += 6 * key.length + 4 + jsonBytesBound((value as Record<string, unknown>)[key]);
  }
  return bytes;
}
