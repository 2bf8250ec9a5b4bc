/** A serving option with a value that cannot work (a limit that is not a positive number, a path without '/'). */
export class InvalidServingOptionError extends Error {
  constructor(
    readonly option: string,
    value: unknown,
    expected: string,
  ) {
    super(`Invalid serving option ${option}: ${JSON.stringify(value) ?? String(value)}. Fix: pass ${expected}.`);
    this.name = 'InvalidServingOptionError';
  }
}
