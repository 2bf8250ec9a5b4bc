/** One round of a paused run, as a replay guard remembers it: the run, which pause, and for how long. */
export interface PausedRound {
  /** The run's id: random, the same in every round of the run (what tools see as `_meta["mcpflow/run"].id`). */
  readonly runId: string;
  /** Which pause of the run the state was sealed at (how many rounds the run had waited, that one included). */
  readonly round: number;
  /** How long the sealed state stays valid, in milliseconds: the guard must remember the round at least that long. */
  readonly ttlMs: number;
  /**
   * Who resumes, as far as the server can tell (`session:<id>` on a 2025 session; on a stateless
   * request `principal:<clientId>` when authenticated, else `address:<ip>`); absent when it cannot.
   * `memoryReplayGuard` keeps a quota per client with it (`maxEntriesPerClient`), so one client
   * cannot fill the guard; it is not part of the round's key (any client's replay is refused).
   */
  readonly client?: string;
  /**
   * What the guard's `generation` named for this run when its state was sealed (absent when it
   * named nothing, or the state was sealed without a guard that has one). A guard whose store has
   * forgotten since (its generation for the run is another now) refuses the round: it may have been
   * resumed before the store forgot.
   */
  readonly generation?: string;
}

/** `first`: nothing resumed from this round before, and now it has been. `replayed`: it was resumed already. */
export type ReplayVerdict = 'first' | 'replayed';

/**
 * Makes a sealed `requestState` single use (DESIGN §2.8): the first resume of a paused round
 * consumes it, and any later resume of the same round — a replay, or an accept after a decline on
 * the same state — is told apart. A guard remembers a round only as long as its state could still
 * open. A guard that cannot tell (full, or its store unreachable) rejects with a
 * `ReplayGuardError`: refusing the resume is safe, guessing `first` is not.
 *
 * The interface sits here, beside the sealer, because resuming (engine/pause) consults it; the
 * guards themselves are in the adapter kit: `memoryReplayGuard()` serves one process,
 * `redisReplayGuard(client)` shares the rounds across instances behind a load balancer.
 *
 * @example
 * ```ts
 * const opened = sealer.openState(requestState, binding);
 * const verdict = await guard.consume({ runId, round, ttlMs: opened.remainingMs }); // runId and round from opened.payload
 * if (verdict === 'replayed') throw new SealedStateError('replayed', 'it was resumed once already.');
 * ```
 */
export interface ReplayGuard {
  consume(round: PausedRound): Promise<ReplayVerdict>;
  /**
   * Optional: what the guard's store is, for `runId`'s rounds, at the moment a state of that run is
   * sealed — a value that changes whenever the store loses what it remembered (Redis restarted
   * or flushed, its keys evicted). It is sealed into the state and handed back in
   * {@link PausedRound.generation} on resume, so a guard can refuse a state sealed before a loss it
   * could not otherwise tell apart from a first start. `undefined` when the guard cannot say; a
   * promise when it must ask its store first (the run waits for it before it pauses).
   */
  generation?(runId: string): string | undefined | PromiseLike<string | undefined>;
}

/**
 * The key a guard stores a round under: `<runId>:<round>`. Checks the round first, since a guard
 * that stored a malformed one could never match its replay.
 */
export function pausedRoundKey({ runId, round, ttlMs }: PausedRound): string {
  if (typeof runId !== 'string' || runId.length === 0) throw new TypeError('mcpflow replay guard: runId must be a non-empty string.');
  if (!Number.isSafeInteger(round) || round < 0) throw new TypeError(`mcpflow replay guard: round must be a whole number, not ${round}.`);
  if (typeof ttlMs !== 'number' || !(ttlMs >= 0) || !Number.isFinite(ttlMs))
    throw new TypeError(`mcpflow replay guard: ttlMs must be a number of milliseconds, not ${ttlMs}.`);
  return `${runId}:${round}`;
}
