import { MalformedResultError } from '../results/malformed-result-error';
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
    };

/**
 * The outcome of a step whose action threw: cancelled, timed out, a malformed result (its message
 * names the tool or resource and the field), or failed with the error's message.
 */
export function failedOutcome(error: unknown, subject: string, verb = ': '): StepOutcome {
  if (error instanceof StepCancelledError) return { status: 'cancelled', reason: `the request was cancelled during ${subject}` };
  if (error instanceof StepTimeoutError)
    return { status: 'failed', reason: `${subject} timed out after ${error.timeoutMs} ms`, errorType: 'timeout' };
  if (error instanceof MalformedResultError) return { status: 'failed', reason: error.message, errorType: 'malformed_result' };
  return { status: 'failed', reason: `${subject}${verb}${errorMessage(error)}`, errorType: errorTypeOf(error) };
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
