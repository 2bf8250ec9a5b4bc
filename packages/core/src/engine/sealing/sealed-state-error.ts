/** Why a `requestState` could not be opened (`replayed`: a replay guard saw its round resumed already). */
export type SealedStateProblem = 'malformed' | 'too-large' | 'not-authentic' | 'expired' | 'stale' | 'replayed';

/**
 * A `requestState` that this server will not resume from: not one it sealed, altered, sealed for
 * another prompt or other arguments, sealed with a key it no longer holds, expired, too large, or
 * (with a replay guard) resumed from before.
 * The adapters answer it as `InvalidParams`; the message never quotes the state's contents.
 */
export class SealedStateError extends Error {
  constructor(
    readonly problem: SealedStateProblem,
    detail: string,
    /** A `stale` state of the workflow whose steps up to where it waited changed: the step it waited at. */
    readonly waitedAt?: string,
  ) {
    super(`requestState rejected: ${detail}`);
    this.name = 'SealedStateError';
  }
}
