import { ClientMarks } from './client-marks';
import { FormSearch } from './form-search';
import { runSecrets, type RunSecrets, type SecretOrigin } from './run-secrets';
import { secretForms } from './secret-forms';
import { sensitiveTexts } from './sensitive-texts';
import { WHOLE_WORD_BELOW, WordSearch, shortForms } from './word-search';

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
 * client's own sensitive value that overlaps one cannot change how it is replaced. A form shorter
 * than `WHOLE_WORD_BELOW` characters is replaced only where it stands as a whole word (`WordSearch`).
 *
 * It changes values, never the structure that holds them: an object's keys are the protocol's
 * field names (`type`, `text`, a schema's properties) and stay as they are, whatever the secret,
 * and so do the values the protocol enumerates (`PROTOCOL_VALUES`: `"type": "text"`, a `role`);
 * only the keys of data a tool or resource returned (inside a `_meta` or `structuredContent`, and
 * `redactData`'s whole value) are redacted like values.
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
  /** This redactor's view of its run's search (see `search`). */
  private searched?: Searched;
  /** This redactor's view of the texts its run has the forms of (see `add`). */
  private known?: Record<SecretOrigin, Set<string>>;

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
    const known = (this.known ??= knownTexts(this.secrets))[origin];
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
    // Most texts short fields give are shorter than any form: nothing to search.
    if (!this.active || text.length < this.search().shortest) return text;
    const { marks } = this;
    const { forms, words } = this.search();
    if (!marks?.marks(text)) return words.everywhere(forms.everywhere(text));
    const pieces = marks.split(text);
    for (let index = 0; index < pieces.length; index += 1)
      pieces[index] =
        index % 2 === 0 ? words.everywhere(forms.everywhere(pieces[index])) : words.suppliedOnly(forms.suppliedOnly(pieces[index]));
    return marks.join(pieces);
  }

  /** Text as the server sends it: redacted, the marks gone. */
  redact(text: string): string {
    const redacted = this.redactInTrace(text);
    return this.marks ? this.marks.strip(redacted) : redacted;
  }

  /**
   * A protocol value (a result, its messages and `_meta`, a question, an event) with every string
   * value as `redact` makes it: every field of every content block and of `_meta`, whatever its
   * name. Its keys stay as they are (the client's marks removed), except inside a `_meta` or
   * `structuredContent` object, whose keys are a tool's data and are redacted too. `inTrace` keeps
   * the marks. The original is never changed: each object or array holding a redacted string is
   * copied, and what holds none is the original itself (as the whole value is when the redactor is
   * inactive).
   */
  redactDeep<T>(value: T, inTrace = false): T {
    if (!this.active && !this.marks) return value;
    return this.deep(value, this.texts(inTrace), false) as T;
  }

  /** As `redactDeep`, for a value that is data throughout (a step's output): its keys are redacted like its values. */
  redactData<T>(value: T): T {
    if (!this.active && !this.marks) return value;
    return this.deep(value, this.texts(false), true) as T;
  }

  private texts(inTrace: boolean): Texts {
    const { marks } = this;
    return inTrace
      ? { redact: (text) => this.redactInTrace(text), name: (text) => text }
      : { redact: (text) => this.redact(text), name: marks ? (text) => marks.strip(text) : (text) => text };
  }

  /** The searches over the secrets' forms as they are now: built again only when the set has grown (it never shrinks). */
  private search(): Searched {
    if (isCurrent(this.searched, this.secrets)) return this.searched;
    let shared = searches.get(this.secrets);
    if (!isCurrent(shared, this.secrets)) {
      const { held, supplied } = this.secrets;
      const long = (forms: readonly string[]) => forms.filter((form) => form.length >= WHOLE_WORD_BELOW);
      const forms = new FormSearch(long(held), long(supplied), REDACTED);
      const words = new WordSearch(shortForms(held), shortForms(supplied), REDACTED);
      const shortest = [...held, ...supplied].reduce((least, form) => Math.min(least, form.length), Infinity);
      shared = { held: held.length, supplied: supplied.length, forms, words, shortest };
      searches.set(this.secrets, shared);
    }
    this.searched = shared;
    return shared;
  }

  /**
   * `value` with every string redacted, and the keys of data (`data`, or below a `DATA_FIELDS`
   * key): the value itself where nothing changes, else a copy of each object and array that does.
   */
  private deep(value: unknown, texts: Texts, data: boolean): unknown {
    if (typeof value === 'string') return texts.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      value.forEach((item, index) => {
        const redacted = this.deep(item, texts, data);
        if (redacted !== item) (copy ??= value.slice())[index] = redacted;
      });
      return copy ?? value;
    }
    // No copy (and no allocation) until a key or a value changes; then the keys before it are copied as they are.
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let copy: Record<string, unknown> | undefined;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index];
      const item = record[key];
      const name = data ? texts.redact(key) : texts.name(key);
      const redacted =
        !data && typeof item === 'string' && PROTOCOL_VALUES.has(key)
          ? texts.name(item)
          : this.deep(item, texts, data || DATA_FIELDS.has(key));
      if (!copy && (name !== key || redacted !== item)) {
        copy = {};
        for (const before of keys.slice(0, index)) setOwn(copy, before, record[before]);
      }
      if (copy) setOwn(copy, name, redacted);
    }
    return copy ?? value;
  }
}

/** How `deep` writes a string value (and a data key), and a protocol key. */
interface Texts {
  readonly redact: (text: string) => string;
  readonly name: (text: string) => string;
}

/**
 * Protocol fields whose string value is one of the few the protocol (or mcpflow's `_meta` and
 * events) defines — a content block's `type`, a message's `role`, a step's `status` — never data:
 * kept as they are, so a secret equal to `text` or `user` cannot make a message the client cannot parse.
 */
const PROTOCOL_VALUES: ReadonlySet<string> = new Set(['type', 'role', 'status', 'phase', 'kind']);

/** Protocol fields whose value is a tool's or resource's own data: its keys are redacted as well. */
const DATA_FIELDS: ReadonlySet<string> = new Set(['_meta', 'structuredContent']);

/** `record[key] = value`, a key named __proto__ included (it stays a key instead of replacing the prototype). */
function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty only then: an assignment is much faster.
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** Each run's search, with the number of forms it was built over; shared by every redactor of the run. */
const searches = new WeakMap<RunSecrets, Searched>();

interface Searched {
  readonly held: number;
  readonly supplied: number;
  /** The forms of `WHOLE_WORD_BELOW` characters or more, replaced wherever they occur. */
  readonly forms: FormSearch;
  /** The shorter forms, replaced where each is a whole word. */
  readonly words: WordSearch;
  /** No text shorter than this holds a form. */
  readonly shortest: number;
}

/** Whether a search was built over the secrets' forms as they are now (they only ever grow). */
function isCurrent(searched: Searched | undefined, secrets: RunSecrets): searched is Searched {
  return searched !== undefined && searched.held === secrets.held.length && searched.supplied === secrets.supplied.length;
}

/** The texts of each run whose forms its redactor has (per origin): never sealed, worked out again with the forms. */
const texts = new WeakMap<RunSecrets, Record<SecretOrigin, Set<string>>>();

function knownTexts(secrets: RunSecrets): Record<SecretOrigin, Set<string>> {
  let known = texts.get(secrets);
  if (!known) texts.set(secrets, (known = { client: new Set(), server: new Set() }));
  return known;
}
