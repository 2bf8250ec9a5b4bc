import { ClientMarks } from './client-marks';
import { FormSearch } from './form-search';
import { runSecrets, type RunSecrets, type SecretOrigin } from './run-secrets';
import { secretForms } from './secret-forms';
import { sensitiveTexts } from './sensitive-texts';

/** What a sensitive value reads as in the trace and `_meta`. */
export const REDACTED = '[redacted]';

/**
 * Replaces sensitive values wherever they appear in outgoing text, in every form the server writes
 * them (raw, JSON-escaped, percent-encoded by each URI template operator; each string of a sensitive
 * object). Keeps those forms in the execution state's own `RunSecrets`, so a run's redaction goes
 * wherever its state goes.
 *
 * It is never an oracle (DESIGN §2.8): text the client supplied is marked (`client`) as it is
 * written into the trace, and a secret the server holds is never searched for inside it — a guess
 * equal to the secret comes back exactly as a wrong one does. Secrets the client supplied itself
 * are searched for everywhere. Outside client text, the server's secrets are replaced first, so a
 * client's own sensitive value that overlaps one cannot change how it is replaced.
 *
 * @example
 * ```ts
 * const redactor = new Redactor();
 * redactor.add('sk/live', 'server');
 * redactor.redact('Reading resource vault://keys/sk%2Flive'); // 'Reading resource vault://keys/[redacted]'
 * ```
 */
export class Redactor {
  /** Marks text the client supplied as it goes into the trace; the text itself when nothing needs telling apart. */
  readonly client: (text: string) => string;
  private readonly marks?: ClientMarks;

  /** What the redactor knows: the run's secrets, kept in its execution state. */
  constructor(readonly secrets: RunSecrets = runSecrets(undefined)) {
    const { mark } = secrets;
    const marks = mark === undefined ? undefined : new ClientMarks(mark);
    this.marks = marks;
    this.client = marks ? (text) => marks.wrap(text) : (text) => text;
  }

  /** Marks a value as sensitive for the rest of this request (one the plan can derive again on resume). */
  add(value: unknown, origin: SecretOrigin): void {
    const list = origin === 'client' ? this.secrets.supplied : this.secrets.held;
    // A run adds the same values again after each binding: a text whose forms it has is skipped.
    const known = knownTexts(this.secrets, origin);
    let added = false;
    for (const text of sensitiveTexts(value)) {
      if (known.has(text)) continue;
      known.add(text);
      for (const form of secretForms(text)) {
        if (list.includes(form)) continue;
        list.push(form);
        added = true;
      }
    }
    // Longest first, so a secret that contains another is replaced whole.
    if (added) list.sort((a, b) => b.length - a.length);
  }

  /** As `add`, for a value a resume could not derive again (an answer, a loop's element): the state keeps it. */
  learn(value: unknown, origin: SecretOrigin): void {
    this.secrets.learned.push({ value, origin });
    this.add(value, origin);
  }

  /** Whether the client's own text is marked apart in this run (only when it can hold a secret of the server's). */
  get marking(): boolean {
    return this.marks !== undefined;
  }

  get active(): boolean {
    return this.secrets.held.length > 0 || this.secrets.supplied.length > 0;
  }

  /** Text as the trace keeps it: redacted, the client's marks kept (so a secret learned later is redacted as well). */
  redactInTrace(text: string): string {
    if (!this.active) return text;
    const { marks } = this;
    if (!marks?.marks(text)) return this.replaceEverywhere(text);
    const pieces = marks.split(text);
    for (let index = 0; index < pieces.length; index += 1)
      pieces[index] = index % 2 === 0 ? this.replaceEverywhere(pieces[index]) : this.search().suppliedOnly(pieces[index]);
    return marks.join(pieces);
  }

  /** Text as the server sends it: redacted, the marks gone. */
  redact(text: string): string {
    const redacted = this.redactInTrace(text);
    return this.marks ? this.marks.strip(redacted) : redacted;
  }

  /**
   * A copy of a JSON-like value with every string as `redact` makes it, object keys included: every
   * field of every content block and of `_meta`, whatever its name. `inTrace` keeps the marks.
   */
  redactDeep<T>(value: T, inTrace = false): T {
    if (!this.active && !this.marks) return value;
    return this.deep(value, inTrace ? (text) => this.redactInTrace(text) : (text) => this.redact(text)) as T;
  }

  private replaceEverywhere(text: string): string {
    return this.search().everywhere(text);
  }

  /** The search over the secrets' forms as they are now: built again only when the set has grown (it never shrinks). */
  private search(): FormSearch {
    const { held, supplied } = this.secrets;
    const cached = searches.get(this.secrets);
    if (cached && cached.held === held.length && cached.supplied === supplied.length) return cached.search;
    const search = new FormSearch(held, supplied, REDACTED);
    searches.set(this.secrets, { held: held.length, supplied: supplied.length, search });
    return search;
  }

  private deep(value: unknown, redact: (text: string) => string): unknown {
    if (typeof value === 'string') return redact(value);
    if (Array.isArray(value)) return value.map((item) => this.deep(item, redact));
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a key named __proto__ stays a key instead of replacing the copy's prototype.
      Object.defineProperty(copy, redact(key), { value: this.deep(item, redact), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
}

/** Each run's search, with the number of forms it was built over; shared by every redactor of the run. */
const searches = new WeakMap<RunSecrets, { held: number; supplied: number; search: FormSearch }>();

/** The texts of each run whose forms its redactor has (per origin): never sealed, worked out again with the forms. */
const texts = new WeakMap<RunSecrets, Record<SecretOrigin, Set<string>>>();

function knownTexts(secrets: RunSecrets, origin: SecretOrigin): Set<string> {
  let known = texts.get(secrets);
  if (!known) texts.set(secrets, (known = { client: new Set(), server: new Set() }));
  return known[origin];
}
