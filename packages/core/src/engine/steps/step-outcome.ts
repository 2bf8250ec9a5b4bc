import { MalformedResultError } from '../results/malformed-result-error';
import { ResourceNotFoundError } from '../results/resource-not-found-error';
import { errorMessage } from '../text/error-message';
import { StepCancelledError, StepTimeoutError } from './step-policy';

/** How a step ended; only a completed step has a value. */
export type StepOutcome =
  | { readonly status: 'completed'; readonly value: unknown }
  | {
      readonly status: 'handoff' | 'failed' | 'cancelled';
      readonly reason: string;
      /** A failure's kind, for telemetry (`error.type`): `tool_error`, `timeout`, `malformed_result`, a thrown error's class name. */
      readonly errorType?: string;
      /**
       * What failed, without a value, for telemetry (a span's status message, DESIGN §2.11): `tool
       * fetch threw`, `resource if://walkthrough/{game_id} timed out after 30000 ms` — names, URI
       * templates, counts. Absent: the reason holds no value either (`tool x is disabled`) or the
       * step did not fail.
       */
      readonly failure?: string;
    };

/**
 * The outcome of a step whose action threw: cancelled, timed out, a malformed result (its message
 * names the tool or resource and the field), or failed with the error's message. `what` names the
 * action without a value (`tool fetch`, `resource if://walkthrough/{game_id}`, the template for a
 * filled URI): the outcome's `failure`.
 */
export function failedOutcome(error: unknown, subject: string, verb = ': ', what = subject): StepOutcome {
  if (error instanceof StepCancelledError) return { status: 'cancelled', reason: `the request was cancelled during ${subject}` };
  if (error instanceof StepTimeoutError) {
    const timedOut = `timed out after ${error.timeoutMs} ms`;
    return { status: 'failed', reason: `${subject} ${timedOut}`, errorType: 'timeout', failure: `${what} ${timedOut}` };
  }
  if (error instanceof MalformedResultError)
    return { status: 'failed', reason: error.message, errorType: 'malformed_result', failure: `${what} returned a malformed result` };
  const failure = error instanceof ResourceNotFoundError ? `${what} not found` : `${what} threw`;
  return { status: 'failed', reason: `${subject}${verb}${errorMessage(error)}`, errorType: errorTypeOf(error), failure };
}

/**
 * The class name of what a handler threw (`TypeError`, `RateLimitError`), for telemetry's
 * `error.type`: code, never data. Anything that is not an error with a plain identifier for a
 * name (a thrown string, an object) is `_OTHER`, the semantic conventions' word for unknown.
 *
 * @example
 * ```ts
 * errorTypeOf(new RangeError('…')); // 'RangeError'
 * errorTypeOf('a string');          // '_OTHER'
 * ```
 */
export function errorTypeOf(error: unknown): string {
  const name = error instanceof Error ? error.constructor.name : undefined;
  return name && /^[A-Za-z_$][\w$]{0,63}$/.test(name) ? name : '_OTHER';
}
