/** Why a replay guard could not tell whether a round was resumed before. */
export type ReplayGuardProblem = 'full' | 'unavailable';

/**
 * A replay guard that cannot answer: it holds as many rounds as it may (`full`), or its store did
 * not answer, answered with an error or with something unexpected (`unavailable`, the store's
 * error as `cause`). The resume is refused — the guard fails closed — and the message says what to
 * change; it never quotes the store's own error, which is for the server's log.
 *
 * @example
 * ```ts
 * try {
 *   await guard.consume(round);
 * } catch (error) {
 *   if (error instanceof ReplayGuardError && error.problem === 'unavailable') console.error('replay guard down:', error.cause);
 * }
 * ```
 */
export class ReplayGuardError extends Error {
  constructor(
    readonly problem: ReplayGuardProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ReplayGuardError';
  }
}
