import { DEFAULT_ASK_TIMEOUT_MS, InvalidServerOptionError } from '../../engine';
import type { WorkflowServingOptions } from '../workflow-serving-options';

/**
 * How many answers one session waits for at once, by default (DESIGN §2.8). A run waiting for an
 * answer does not count under the run caps, so a session reaches it with `maxConcurrentRunsPerSession` at 16.
 */
export const DEFAULT_MAX_PENDING_ASKS_PER_SESSION = 100;

/** How many answers one process waits for at once, by default, over every session of every server (DESIGN §2.8). */
export const DEFAULT_MAX_PENDING_ASKS = 1_000;

/** The longest timer Node keeps (2^31 - 1 ms, about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The bounds of waiting for answers asked in place (a 2025 session), defaults filled in. */
export interface AskLimits {
  readonly askTimeoutMs: number;
  readonly maxPendingAsksPerSession: number;
  readonly maxPendingAsks: number;
}

/**
 * Checks a server's bounds on asking in place and fills in the defaults; throws
 * `InvalidServerOptionError`, naming the option, for a value out of range.
 *
 * @example
 * ```ts
 * applyAskLimits({ askTimeoutMs: 30_000 }); // { askTimeoutMs: 30000, maxPendingAsksPerSession: 100, maxPendingAsks: 1000 }
 * ```
 */
export function applyAskLimits(options: WorkflowServingOptions): AskLimits {
  const {
    askTimeoutMs = DEFAULT_ASK_TIMEOUT_MS,
    maxPendingAsksPerSession = DEFAULT_MAX_PENDING_ASKS_PER_SESSION,
    maxPendingAsks = DEFAULT_MAX_PENDING_ASKS,
  } = options;
  if (!(typeof askTimeoutMs === 'number' && askTimeoutMs > 0 && askTimeoutMs <= MAX_TIMER_MS))
    throw new InvalidServerOptionError(
      'askTimeoutMs',
      `must be a positive number of milliseconds, at most ${MAX_TIMER_MS} (got ${String(askTimeoutMs)}).`,
    );
  for (const [option, value] of [
    ['maxPendingAsksPerSession', maxPendingAsksPerSession],
    ['maxPendingAsks', maxPendingAsks],
  ] as const) {
    if (!(Number.isInteger(value) && value >= 1))
      throw new InvalidServerOptionError(
        option,
        `must be a positive integer: how many answers may be awaited at once (got ${String(value)}).`,
      );
  }
  return { askTimeoutMs, maxPendingAsksPerSession, maxPendingAsks };
}
