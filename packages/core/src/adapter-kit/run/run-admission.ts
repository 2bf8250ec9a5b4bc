import { InvalidServerOptionError } from '../../engine';
import { ServingErrorCodes } from '../serving/json-rpc-error-response';
import type { WorkflowServingOptions } from '../workflow-serving-options';

/** How many runs one process executes at once, by default, over every session of every server (a run waiting for an answer is not executing). */
export const DEFAULT_MAX_CONCURRENT_RUNS = 256;

/** How many runs one 2025 session executes at once, by default. */
export const DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION = 16;

type RunCap = 'maxConcurrentRuns' | 'maxConcurrentRunsPerSession';

/**
 * A run refused before any step because too many run at once: in the process (`maxConcurrentRuns`)
 * or on its session (`maxConcurrentRunsPerSession`). Its `code` and message reach the client as the
 * JSON-RPC error of the request (`prompts/get` and a workflow tool's `tools/call` alike), on either line.
 */
class ConcurrentRunsRefusal extends Error {
  /** A transport-level refusal, as the serving helpers answer a full session pool. */
  readonly code = ServingErrorCodes.Refused;

  constructor(
    readonly option: RunCap,
    readonly limit: number,
  ) {
    const holder = option === 'maxConcurrentRuns' ? 'this server process' : 'this session';
    super(
      `Refused: ${holder} already executes ${limit} workflow runs at once (${option}: ${limit}). ` +
        `Retry once one ends, or raise ${option}.`,
    );
    this.name = 'ConcurrentRunsRefusal';
  }
}

/** Runs executing in this process, over every server it builds (`serveHttp` builds one per session or request). */
let runningInProcess = 0;

/**
 * Admits a server's runs under the caps on runs at once, per process and per session: two counters
 * and a map entry per session with runs, so admission is O(1) and allocates nothing but the entry.
 *
 * @example
 * ```ts
 * const admission = new RunAdmission(options); // out-of-range caps throw here
 * const refusal = admission.enter(sessionId);  // a ConcurrentRunsRefusal when full; else admitted
 * try { await run(); } finally { admission.leave(sessionId); }
 * ```
 */
export class RunAdmission {
  private readonly maxConcurrentRuns: number;
  private readonly maxConcurrentRunsPerSession: number;
  /** By session id; `undefined` is the one session of a connection without ids (stdio, in memory, a stateless request's server). */
  private readonly bySession = new Map<string | undefined, number>();

  constructor(options: WorkflowServingOptions) {
    const { maxConcurrentRuns = DEFAULT_MAX_CONCURRENT_RUNS, maxConcurrentRunsPerSession = DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION } =
      options;
    for (const [option, value] of [
      ['maxConcurrentRuns', maxConcurrentRuns],
      ['maxConcurrentRunsPerSession', maxConcurrentRunsPerSession],
    ] as const) {
      if (!(Number.isInteger(value) && value >= 1))
        throw new InvalidServerOptionError(option, `must be a positive integer: how many runs may execute at once (got ${String(value)}).`);
    }
    this.maxConcurrentRuns = maxConcurrentRuns;
    this.maxConcurrentRunsPerSession = maxConcurrentRunsPerSession;
  }

  /** Counts a run in, or returns the refusal when the process or the session already runs all it may. */
  enter(session: string | undefined): ConcurrentRunsRefusal | undefined {
    if (runningInProcess >= this.maxConcurrentRuns) return new ConcurrentRunsRefusal('maxConcurrentRuns', this.maxConcurrentRuns);
    const count = this.bySession.get(session) ?? 0;
    if (count >= this.maxConcurrentRunsPerSession)
      return new ConcurrentRunsRefusal('maxConcurrentRunsPerSession', this.maxConcurrentRunsPerSession);
    runningInProcess += 1;
    this.bySession.set(session, count + 1);
    return undefined;
  }

  /**
   * Counts back in a run that left while it waited for an answer (see `RunSlot`): never refuses,
   * since the run was admitted, so the count may pass a cap until runs end.
   */
  reenter(session: string | undefined): void {
    runningInProcess += 1;
    this.bySession.set(session, (this.bySession.get(session) ?? 0) + 1);
  }

  /** Counts a run admitted by {@link enter} (or counted back by {@link reenter}) out. */
  leave(session: string | undefined): void {
    runningInProcess -= 1;
    const count = (this.bySession.get(session) ?? 1) - 1;
    if (count === 0) this.bySession.delete(session);
    else this.bySession.set(session, count);
  }
}
