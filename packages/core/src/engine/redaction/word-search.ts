/**
 * Forms shorter than this are replaced only where they stand as a whole word (see `WordSearch`);
 * longer ones wherever they occur. A one-letter secret replaced inside every word would ruin every
 * text the server writes (each "a" of a sentence), and tell a reader no less than the secret itself.
 */
export const WHOLE_WORD_BELOW = 4;

/**
 * Replaces the short forms of a run's secrets (shorter than `WHOLE_WORD_BELOW`) where each stands
 * as a whole word: not next to a letter or digit on either side. So a secret `a` reads
 * `answered: [redacted]` and `PIN [redacted] accepted`, and `banana`, `type` and `text` stay as they
 * are. A whole string that equals one is a whole word too. One pass over the text, longest form
 * first where two start at the same place: no replacement is searched again (`[redacted]` has no
 * short form standing alone in it).
 *
 * @example
 * ```ts
 * const words = new WordSearch(['7'], [], '[redacted]');
 * words.everywhere('PIN 7 for 77 users'); // 'PIN [redacted] for 77 users'
 * ```
 */
export class WordSearch {
  private readonly all?: RegExp;
  private readonly supplied?: RegExp;

  constructor(
    held: readonly string[],
    supplied: readonly string[],
    private readonly replacement: string,
  ) {
    this.all = wordsPattern([...held, ...supplied]);
    this.supplied = wordsPattern(supplied);
  }

  /** `text` with every short form of every secret replaced where it is a whole word. */
  everywhere(text: string): string {
    return this.all ? text.replace(this.all, this.replacement) : text;
  }

  /** `text` with the short forms of the secrets the client supplied replaced (inside the client's own text). */
  suppliedOnly(text: string): string {
    return this.supplied ? text.replace(this.supplied, this.replacement) : text;
  }
}

/** The short ones among `forms`, longest first (what `WordSearch` searches; the rest is `FormSearch`'s). */
export function shortForms(forms: readonly string[]): string[] {
  return forms.filter((form) => form.length < WHOLE_WORD_BELOW);
}

function wordsPattern(forms: readonly string[]): RegExp | undefined {
  const words = [...new Set(forms)].sort((a, b) => b.length - a.length);
  if (words.length === 0) return undefined;
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}
