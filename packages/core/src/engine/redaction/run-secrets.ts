/**
 * Who knows a sensitive value already. `client`: the client supplied it (a sensitive prompt
 * argument, an answer), so redacting it wherever it appears tells the client nothing. `server`:
 * the server holds it (a constant, a value a tool returned); the client must not learn whether any
 * text of its own equals it.
 */
export type SecretOrigin = 'client' | 'server';

/** A sensitive value the run learned that its plan, arguments and bindings cannot give again on resume. */
export interface LearnedSecret {
  readonly value: unknown;
  readonly origin: SecretOrigin;
}

/**
 * What a run's redactor knows, kept in its execution state so redaction goes wherever the state
 * goes. `held` and `supplied` are every form the server may write each secret in, longest first;
 * they are worked out again on resume from the plan, the arguments, the bindings and `learned`,
 * and never sealed.
 */
export interface RunSecrets {
  /** Forms of the secrets the server holds: never searched for in text the client supplied. */
  readonly held: string[];
  /** Forms of the secrets the client supplied: searched for everywhere. */
  readonly supplied: string[];
  /** Sensitive answers and `forEach` elements: what a resume cannot derive again. */
  readonly learned: LearnedSecret[];
  /** The key of the run's marks of client text (see `ClientMarks`); absent when the workflow can hold no secret of the server's. */
  readonly mark?: string;
}

/**
 * Teaches a run the secrets of the run that runs it as a step (a sub-workflow): every form of
 * every outer secret, searched everywhere in the inner run's text — its arguments included, which
 * the outer run wrote, so an outer secret passed in shows nowhere in the inner trace either. The
 * inner result goes back into the outer trace, where the outer run searches the same secrets.
 */
export function inheritSecrets(into: RunSecrets, outer: RunSecrets): void {
  const known = new Set(into.supplied);
  for (const form of [...outer.held, ...outer.supplied]) {
    if (known.has(form)) continue;
    known.add(form);
    into.supplied.push(form);
  }
  // Longest first, so a secret that contains another is replaced whole.
  into.supplied.sort((a, b) => b.length - a.length);
}

/** The secrets of a run that has not started: none yet, and a mark key when there is anything to tell client text from. */
export function runSecrets(mark: string | undefined): RunSecrets {
  return mark === undefined ? { held: [], supplied: [], learned: [] } : { held: [], supplied: [], learned: [], mark };
}
