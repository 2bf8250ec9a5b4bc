/** What a sensitive value reads as in the trace and `_meta`. */
export const REDACTED = '[redacted]';

/**
 * Replaces sensitive values wherever they appear in outgoing text — also when a tool echoes one
 * back, or when it sits JSON-escaped inside an argument dump. Keeps them in the execution state's
 * own list (longest first), so a run's redaction goes wherever its state goes.
 */
export class Redactor {
  constructor(private readonly secrets: string[] = []) {}

  /** Marks a value as sensitive for the rest of this request. */
  add(value: unknown): void {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (!text) return;
    const escaped = JSON.stringify(text).slice(1, -1);
    for (const secret of escaped === text ? [text] : [text, escaped]) {
      if (!this.secrets.includes(secret)) this.secrets.push(secret);
    }
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets.sort((a, b) => b.length - a.length);
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  redact(text: string): string {
    let result = text;
    for (const secret of this.secrets) if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    return result;
  }
}
