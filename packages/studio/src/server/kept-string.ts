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

/** What each object, array and slot of a parsed value holds beside its JSON text (V8's headers and pointers), rounded up. */
const SLOT_BYTES = 16;

/** How many objects, arrays and slots (`{`, `[`, `,`) `json` makes when parsed; in strings too (an overcount, never under). */
function slots(json: string): number {
  let count = 0;
  for (let index = 0; index < json.length; index += 1) {
    const code = json.charCodeAt(index);
    if (code === 0x7b || code === 0x5b || code === 0x2c) count += 1;
  }
  return count;
}

/**
 * `value`'s JSON, and the bytes the value holds on the heap: its text (`heapBytes`, counted field by
 * field, so one character past Latin-1 in a run's timeline doubles the timeline's count and not a
 * 256 KiB text beside it; within a field the whole JSON doubles, as strings cut out of a two-byte
 * text are two-byte too), and `SLOT_BYTES` for each object, array and slot its parsed form holds
 * (1,300 small objects hold about three times their JSON).
 */
export function jsonWithHeapBytes(value: unknown): { json: string; bytes: number } {
  const json = JSON.stringify(value) ?? '';
  let text: number;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && NOT_LATIN1.test(json)) {
    text = 2;
    for (const [key, field] of Object.entries(value)) text += heapBytes(JSON.stringify(key)) + 2 + heapBytes(JSON.stringify(field) ?? '');
  } else text = heapBytes(json);
  return { json, bytes: text + SLOT_BYTES * slots(json) };
}

/**
 * A copy of `text` that holds nothing else. V8 keeps the whole parent of a slice alive (and a
 * concatenation holds its parts): the first 16 KiB of a 1 MB message, kept as `slice` returns it,
 * holds the 1 MB. Every cut the studio keeps goes through this.
 */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
