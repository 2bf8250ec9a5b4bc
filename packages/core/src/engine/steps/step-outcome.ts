import { MalformedResultError } from '../results/malformed-result-error';
import { errorMessage } from '../text/error-message';
import { StepCancelledError, StepTimeoutError } from './step-policy';

/** How a step ended; only a completed step has a value. */
export type StepOutcome =
  | { readonly status: 'completed'; readonly value: unknown }
  | { readonly status: 'handoff' | 'failed' | 'cancelled'; readonly reason: string };

/**
 * The outcome of a step whose action threw: cancelled, timed out, a malformed result (its message
 * names the tool or resource and the field), or failed with the error's message.
 */
export function failedOutcome(error: unknown, subject: string, verb = ': '): StepOutcome {
  if (error instanceof StepCancelledError) return { status: 'cancelled', reason: `the request was cancelled during ${subject}` };
  if (error instanceof StepTimeoutError) return { status: 'failed', reason: `${subject} timed out after ${error.timeoutMs} ms` };
  if (error instanceof MalformedResultError) return { status: 'failed', reason: error.message };
  return { status: 'failed', reason: `${subject}${verb}${errorMessage(error)}` };
}
