import { FormAutomaton } from './form-automaton';

/**
 * Replaces the forms of a run's secrets in one pass over a text (one automaton over every form of
 * every secret, held and supplied), with exactly the result of replacing them one after another:
 * `replaceInTurn(replaceInTurn(text, held), supplied)`, each form longest first, every
 * non-overlapping occurrence left to right. So where two forms overlap, the one replaced first
 * then wins, as before. Built once per set of forms (a run keeps its search, see `Redactor`), not per text.
 *
 * Replacing in turn can also find a form in a replacement just written (a form such as `acted]`);
 * when any form could (it overlaps the replacement), the search replaces in turn instead, which is
 * that result by definition — as it does when the automaton would be too large, and for a single
 * form (a search for one string, which the engine does natively). The automaton is built on the
 * first text searched.
 *
 * @example
 * ```ts
 * const search = new FormSearch(['sk/live', 'sk%2Flive'], [], '[redacted]');
 * search.everywhere('vault://keys/sk%2Flive'); // 'vault://keys/[redacted]'
 * ```
 */
export class FormSearch {
  private readonly held: readonly string[];
  private readonly supplied: readonly string[];
  /** Built on the first text that needs it; absent while the search replaces in turn instead. */
  private prepared?: Prepared;
  private inTurn: boolean;
  /** No text shorter than this holds a form: the redactor returns it as it is without asking. */
  readonly shortest: number;

  constructor(
    held: readonly string[],
    supplied: readonly string[],
    private readonly replacement: string,
  ) {
    // Copies: the run's lists grow as it learns secrets, and this search is for the set it was built over.
    this.held = [...held];
    this.supplied = [...supplied];
    // One form: a search for one string, which the engine does natively.
    this.inTurn = this.held.length + this.supplied.length <= 1;
    this.shortest = Math.min(shortestOf(this.held), shortestOf(this.supplied));
  }

  /** `text` with every form of every secret replaced: the held forms first, then the supplied ones. */
  everywhere(text: string): string {
    const prepared = this.prepare();
    if (!prepared) return replaceInTurn(replaceInTurn(text, this.held, this.replacement), this.supplied, this.replacement);
    return this.replaceFound(prepared, text, prepared.turns);
  }

  /** `text` with the forms of the secrets the client supplied replaced (inside the client's own text). */
  suppliedOnly(text: string): string {
    const prepared = this.prepare();
    if (!prepared) return replaceInTurn(text, this.supplied, this.replacement);
    return this.replaceFound(prepared, text, prepared.suppliedTurns);
  }

  private prepare(): Prepared | undefined {
    if (this.inTurn || this.prepared) return this.prepared;
    const turns = new Map<string, number>();
    [...this.held, ...this.supplied].forEach((form, turn) => turns.has(form) || turns.set(form, turn));
    const patterns = [...turns.keys()];
    const automaton = patterns.some((form) => overlaps(form, this.replacement)) ? undefined : FormAutomaton.build(patterns);
    if (!automaton) {
      this.inTurn = true;
      return undefined;
    }
    const suppliedTurns = new Map<string, number>();
    this.supplied.forEach((form, turn) => suppliedTurns.has(form) || suppliedTurns.set(form, turn));
    this.prepared = {
      automaton,
      patterns,
      turns: [...turns.values()],
      suppliedTurns: patterns.map((form) => suppliedTurns.get(form) ?? -1),
      anchors: anchorsOf(patterns),
      shortest: this.shortest,
      longest: patterns.reduce((most, form) => Math.max(most, form.length), 0),
    };
    return this.prepared;
  }

  private replaceFound(prepared: Prepared, text: string, turns: readonly number[]): string {
    const { automaton, patterns, anchors, shortest, longest } = prepared;
    if (text.length < shortest) return text;
    // Every occurrence of a form holds an anchor: none in the text, nothing to replace; else the
    // automaton reads only from a form's length before the first anchor to one after the last.
    let first = text.length;
    let last = -1;
    for (const anchor of anchors) {
      const at = text.indexOf(anchor);
      if (at < 0) continue;
      first = Math.min(first, at);
      last = Math.max(last, text.lastIndexOf(anchor) + anchor.length);
    }
    if (last < 0) return text;
    const found = automaton.occurrences(text, Math.max(0, first - longest), Math.min(text.length, last + longest));
    if (found.length === 0) return text;
    if (found.length === 2) {
      // One occurrence (the usual case): replaced, unless it is of a form not searched for here.
      const [start, pattern] = found;
      return turns[pattern] < 0 ? text : text.slice(0, start) + this.replacement + text.slice(start + patterns[pattern].length);
    }
    // In turn order, then left to right: what replacing each form in its turn would replace.
    const order: number[] = [];
    for (let index = 0; index < found.length; index += 2) if (turns[found[index + 1]] >= 0) order.push(index);
    order.sort((a, b) => turns[found[a + 1]] - turns[found[b + 1]] || found[a] - found[b]);
    const replaced = new Uint8Array(text.length);
    const chosen: number[] = [];
    let pattern = -1;
    let lastEnd = 0;
    for (const index of order) {
      const start = found[index];
      const end = start + patterns[found[index + 1]].length;
      if (found[index + 1] !== pattern) [pattern, lastEnd] = [found[index + 1], 0];
      // Gone already: overlapping this form's previous occurrence, or text an earlier form replaced.
      if (start < lastEnd || isReplaced(replaced, start, end)) continue;
      replaced.fill(1, start, end);
      chosen.push(start, end);
      lastEnd = end;
    }
    return spliced(text, chosen, this.replacement);
  }
}

function shortestOf(forms: readonly string[]): number {
  return forms.reduce((least, form) => Math.min(least, form.length), Infinity);
}

/** What a search over several forms is built from, once. */
interface Prepared {
  readonly automaton: FormAutomaton;
  readonly patterns: readonly string[];
  /** Per pattern: its turn when replacing everywhere (held forms, then supplied ones). */
  readonly turns: readonly number[];
  /** Per pattern: its turn among the supplied forms alone, or -1 when it is held only. */
  readonly suppliedTurns: readonly number[];
  /** Texts of which every form holds one (see `anchorsOf`): a text that holds none of them is returned as it is. */
  readonly anchors: readonly string[];
  readonly shortest: number;
  readonly longest: number;
}

/** The reference: each form in turn, every non-overlapping occurrence left to right, in the text as the earlier forms left it. */
export function replaceInTurn(text: string, forms: readonly string[], replacement: string): string {
  let result = text;
  for (const form of forms) if (result.includes(form)) result = result.split(form).join(replacement);
  return result;
}

/**
 * A few texts such that every form holds one of them: the longest run of letters and digits of
 * each form (which no JSON escape or percent-encoding of the secret changes, so the forms of one
 * secret mostly share it), or the form itself when it has none; an anchor that holds another is
 * left out. A text is searched for these natively, far faster than an automaton reads it.
 */
function anchorsOf(forms: readonly string[]): string[] {
  const candidates = forms.map((form) => (form.match(/[A-Za-z0-9]+/g) ?? [form]).reduce((a, b) => (b.length > a.length ? b : a)));
  const anchors: string[] = [];
  for (const candidate of [...new Set(candidates)].sort((a, b) => a.length - b.length))
    if (!anchors.some((anchor) => candidate.includes(anchor))) anchors.push(candidate);
  return anchors;
}

/** Whether replacing `form` in turn could find it in a replacement written before (or next to one). */
function overlaps(form: string, replacement: string): boolean {
  if (replacement.includes(form) || form.includes(replacement)) return true;
  for (let length = 1; length < Math.min(form.length, replacement.length); length += 1)
    if (form.endsWith(replacement.slice(0, length)) || form.startsWith(replacement.slice(-length))) return true;
  return false;
}

function isReplaced(replaced: Uint8Array, start: number, end: number): boolean {
  for (let offset = start; offset < end; offset += 1) if (replaced[offset] === 1) return true;
  return false;
}

/** `text` with each chosen (start, end) span, none overlapping, replaced. */
function spliced(text: string, chosen: number[], replacement: string): string {
  const spans: [number, number][] = [];
  for (let index = 0; index < chosen.length; index += 2) spans.push([chosen[index], chosen[index + 1]]);
  spans.sort((a, b) => a[0] - b[0]);
  let result = '';
  let last = 0;
  for (const [start, end] of spans) {
    result += text.slice(last, start) + replacement;
    last = end;
  }
  return result + text.slice(last);
}
