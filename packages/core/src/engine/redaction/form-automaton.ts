/** Past this many table cells (states × distinct code units) the automaton is not built: `FormSearch` replaces form by form. */
const MAX_CELLS = 1 << 18;

/**
 * An Aho–Corasick automaton over a set of patterns, as a dense table over the UTF-16 code units
 * that occur in them (each other unit sends the search back to the root): one pass over a text
 * finds every occurrence of every pattern, overlapping ones included, matching as
 * `String.prototype.includes` does (code unit by code unit: a lone surrogate is a unit too).
 * `undefined` from `build` when the table would be too large.
 *
 * @example
 * ```ts
 * const automaton = FormAutomaton.build(['he', 'she', 'hers'])!;
 * automaton.occurrences('ushers'); // [1, 1, 2, 0, 2, 2] — start, pattern pairs: she, he, hers
 * ```
 */
export class FormAutomaton {
  private constructor(
    private readonly ascii: Int32Array,
    private readonly units: ReadonlyMap<number, number>,
    private readonly width: number,
    private readonly table: Int32Array,
    /** Per state: the pattern it ends, or -1. */
    private readonly ends: Int32Array,
    /** Per state: the nearest state on its failure chain that ends a pattern, or 0. */
    private readonly endLinks: Int32Array,
    private readonly lengths: readonly number[],
    /** No text shorter than this holds a pattern. */
    private readonly shortest: number,
  ) {}

  static build(patterns: readonly string[]): FormAutomaton | undefined {
    const ascii = new Int32Array(128);
    const units = new Map<number, number>();
    let width = 1;
    const unitClass = (unit: number): number => {
      const known = unit < 128 ? ascii[unit] : (units.get(unit) ?? 0);
      if (known !== 0) return known;
      if (unit < 128) ascii[unit] = width;
      else units.set(unit, width);
      return width++;
    };
    // The trie: children per state, the pattern each state ends.
    const children: Map<number, number>[] = [new Map()];
    const endsList: number[] = [-1];
    patterns.forEach((pattern, index) => {
      let state = 0;
      for (let offset = 0; offset < pattern.length; offset += 1) {
        const unit = unitClass(pattern.charCodeAt(offset));
        let next = children[state].get(unit);
        if (next === undefined) {
          next = children.length;
          children.push(new Map());
          endsList.push(-1);
          children[state].set(unit, next);
        }
        state = next;
      }
      endsList[state] = index;
    });
    const states = children.length;
    if (states * width > MAX_CELLS) return undefined;
    const table = new Int32Array(states * width);
    const ends = Int32Array.from(endsList);
    const endLinks = new Int32Array(states);
    const fail = new Int32Array(states);
    // Breadth first, so a state's failure state has its row before the state does.
    const queue: number[] = [];
    for (const [unit, child] of children[0]) {
      table[unit] = child;
      queue.push(child);
    }
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head];
      const failure = fail[state];
      endLinks[state] = ends[failure] >= 0 ? failure : endLinks[failure];
      const row = state * width;
      table.set(table.subarray(failure * width, failure * width + width), row);
      for (const [unit, child] of children[state]) {
        fail[child] = table[failure * width + unit];
        table[row + unit] = child;
        queue.push(child);
      }
    }
    const shortest = patterns.reduce((least, pattern) => Math.min(least, pattern.length), Infinity);
    return new FormAutomaton(
      ascii,
      units,
      width,
      table,
      ends,
      endLinks,
      patterns.map((pattern) => pattern.length),
      shortest,
    );
  }

  /**
   * Every occurrence in `text` that starts at `from` or later and ends by `to`, as flat (start,
   * pattern) pairs in the order their ends are met; empty when none.
   */
  occurrences(text: string, from = 0, to = text.length): number[] {
    const found: number[] = [];
    if (to - from < this.shortest) return found;
    const { ascii, units, width, table, ends, endLinks, lengths } = this;
    let state = 0;
    for (let offset = from; offset < to; offset += 1) {
      const unit = text.charCodeAt(offset);
      state = table[state * width + (unit < 128 ? ascii[unit] : (units.get(unit) ?? 0))];
      if (state === 0) continue;
      for (let end = ends[state] >= 0 ? state : endLinks[state]; end !== 0; end = endLinks[end]) {
        const pattern = ends[end];
        found.push(offset + 1 - lengths[pattern], pattern);
      }
    }
    return found;
  }
}
