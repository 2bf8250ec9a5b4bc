import { secretForms } from './secret-forms';
import { sensitiveTexts } from './sensitive-texts';

/** What a sensitive value reads as in the trace and `_meta`. */
export const REDACTED = '[redacted]';

/**
 * Replaces sensitive values wherever they appear in outgoing text, in every form the server writes
 * them (raw, JSON-escaped, percent-encoded by each URI template operator; each string of a sensitive
 * object). Keeps those forms in the execution state's own list (longest first), so a run's
 * redaction goes wherever its state goes.
 *
 * @example
 * ```ts
 * const redactor = new Redactor();
 * redactor.add('sk/live');
 * redactor.redact('Reading resource vault://keys/sk%2Flive'); // 'Reading resource vault://keys/[redacted]'
 * ```
 */
export class Redactor {
  constructor(private readonly secrets: string[] = []) {}

  /** Marks a value as sensitive for the rest of this request. */
  add(value: unknown): void {
    let added = false;
    for (const text of sensitiveTexts(value)) {
      for (const form of secretForms(text)) {
        if (this.secrets.includes(form)) continue;
        this.secrets.push(form);
        added = true;
      }
    }
    // Longest first, so a secret that contains another is replaced whole.
    if (added) this.secrets.sort((a, b) => b.length - a.length);
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    return result;
  }

  /**
   * A copy of a JSON-like value with every string redacted, object keys included: every field of
   * every content block and of `_meta`, whatever its name.
   */
  redactDeep<T>(value: T): T {
    return this.active ? (this.deep(value) as T) : value;
  }

  private deep(value: unknown): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (Array.isArray(value)) return value.map((item) => this.deep(item));
    if (typeof value !== 'object' || value === null) return value;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // defineProperty: a key named __proto__ stays a key instead of replacing the copy's prototype.
      Object.defineProperty(copy, this.redact(key), { value: this.deep(item), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
}
