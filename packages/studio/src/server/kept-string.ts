/**
 * What a string the studio keeps costs its heap (issue 40: the history's `--history-bytes` bound
 * is a bound on the heap the kept runs hold, so what it counts is what V8 holds).
 */

/** A character that does not fit in Latin-1: V8 then stores the whole string two bytes a character. */
const NOT_LATIN1 = /[\u0100-\uffff]/;

/**
 * The bytes a string of `text` holds on the heap: one a character when every character fits in
 * Latin-1, else two (V8's one-byte and two-byte strings). A JSON text counted this way covers the
 * strings parsed from it.
 */
export function heapBytes(text: string): number {
  return NOT_LATIN1.test(text) ? 2 * text.length : text.length;
}

/**
 * A copy of `text` that holds nothing else. V8 keeps the whole parent of a slice alive (and a
 * concatenation holds its parts): the first 16 KiB of a 1 MB message, kept as `slice` returns it,
 * holds the 1 MB. Every cut the studio keeps goes through this.
 */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
