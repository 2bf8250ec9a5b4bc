import { detached } from './kept-string';

/**
 * Caps on what a server sends, applied before the studio keeps or shows it (issue 40 §7): a string
 * past `MAX_STRING_CHARS` is cut and says how much was cut, an array past `MAX_ITEMS` keeps its
 * first items and says how many more there were, nesting past `MAX_DEPTH` is summarised. A run is
 * then bounded, whatever the server answers: a 1 MB unbroken string is 256 KiB and a note.
 */
const MAX_STRING_CHARS = 256 * 1024;
const MAX_ITEMS = 1000;
const MAX_DEPTH = 32;

/**
 * The note that ends a cut string: ASCII, so a cut of one-byte text stays one byte a character on
 * the heap (a `…` would make V8 store the whole 256 KiB cut two bytes a character).
 */
function cutNote(cut: number): string {
  return `... (${cut.toLocaleString('en')} more characters not kept by the studio)`;
}

/** A name (a step's, a status word) cut to `max` characters: it is repeated on many rows. */
export function cappedName(value: unknown, max = 200): string {
  const text = String(value);
  return text.length > max ? detached(text.slice(0, max) + cutNote(text.length - max)) : text;
}

/** `value` with every string, array and nesting capped; a new value (the original is untouched). */
export function capped(value: unknown, depth = 0): unknown {
  if (typeof value === 'string')
    return value.length > MAX_STRING_CHARS ? detached(value.slice(0, MAX_STRING_CHARS) + cutNote(value.length - MAX_STRING_CHARS)) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_DEPTH) return '(nested too deep: not kept by the studio)';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((item) => capped(item, depth + 1));
    if (value.length > MAX_ITEMS) kept.push(`(${(value.length - MAX_ITEMS).toLocaleString('en')} more items not kept by the studio)`);
    return kept;
  }
  const entries = Object.entries(value);
  // Own data properties only, `__proto__` included as a plain key (not the prototype).
  const result: Record<string, unknown> = {};
  for (const [key, item] of entries.slice(0, MAX_ITEMS))
    Object.defineProperty(result, capped(key) as string, {
      value: capped(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  if (entries.length > MAX_ITEMS) result['(not kept)'] = `${(entries.length - MAX_ITEMS).toLocaleString('en')} more properties`;
  return result;
}
