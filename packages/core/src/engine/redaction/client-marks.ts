import { randomBytes } from 'node:crypto';

/**
 * Noncharacters (Unicode keeps them for a program's internal use) that open and close text the
 * client supplied, each followed by the run's key. JSON leaves them as they are; a URI template
 * percent-encodes them as UTF-8, which is recognized too.
 */
const OPEN = '\uFDD0';
const CLOSE = '\uFDD1';
const OPEN_IN_URI = '%EF%B7%90';
const CLOSE_IN_URI = '%EF%B7%91';

/** A run's key for its marks: random, so nothing a tool returns or a client sends can open or close a mark. */
export function newMarkKey(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * Marks the spans of a run's trace that hold text the client itself supplied (its arguments, its
 * answers), so that redaction can tell them from everything else after they are joined into
 * messages: a secret the server holds is never searched for inside them (DESIGN §2.8, no oracles).
 * The marks stay in the trace while the run goes on (and in its sealed state), and are removed
 * from everything the server sends.
 *
 * @example
 * ```ts
 * const marks = new ClientMarks(newMarkKey());
 * const text = `Deploying ${marks.wrap(note)}.`;
 * marks.split(text); // ['Deploying ', note, '.'] — client text at odd indexes
 * marks.strip(text); // `Deploying ${note}.`
 * ```
 */
export class ClientMarks {
  private readonly span: RegExp;
  private readonly token: RegExp;

  constructor(readonly key: string) {
    this.span = new RegExp(`(?:${OPEN}|${OPEN_IN_URI})${key}([\\s\\S]*?)(?:${CLOSE}|${CLOSE_IN_URI})${key}`, 'g');
    this.token = new RegExp(`(?:${OPEN}|${CLOSE}|${OPEN_IN_URI}|${CLOSE_IN_URI})${key}`, 'g');
  }

  wrap(text: string): string {
    return `${OPEN}${this.key}${text}${CLOSE}${this.key}`;
  }

  /** Whether `text` may hold a mark at all (a cheap test before `split`). */
  marks(text: string): boolean {
    return text.includes(this.key);
  }

  /** The text in pieces: what is outside any mark at even indexes, the client's text (unmarked) at odd ones. */
  split(text: string): string[] {
    const pieces: string[] = [];
    let last = 0;
    for (const match of text.matchAll(this.span)) {
      pieces.push(text.slice(last, match.index), match[1]);
      last = match.index + match[0].length;
    }
    pieces.push(text.slice(last));
    return pieces;
  }

  /** Puts pieces from `split` (each maybe changed) back together, marks included. */
  join(pieces: readonly string[]): string {
    let text = pieces[0];
    for (let index = 1; index < pieces.length; index += 2) text += this.wrap(pieces[index]) + pieces[index + 1];
    return text;
  }

  /** The text as the client sees it: every mark removed. */
  strip(text: string): string {
    return this.marks(text) ? text.replace(this.token, '') : text;
  }
}
