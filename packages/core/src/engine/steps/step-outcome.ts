import { errorMessage } from '../trace/messages';
import { StepCancelledError, StepTimeoutError } from './step-policy';

/** How a step ended; only a completed step has a value. */
export type StepOutcome =
  | { readonly status: 'completed'; readonly value: unknown }
  | { readonly status: 'handoff' | 'failed' | 'cancelled'; readonly reason: string };

/** The outcome of a step whose action threw: cancelled, timed out, or failed with the error's message. */
export function failedOutcome(error: unknown, subject: string, verb = ': '): StepOutcome {
  if (error instanceof StepCancelledError) return { status: 'cancelled', reason: `the request was cancelled during ${subject}` };
  if (error instanceof StepTimeoutError) return { status: 'failed', reason: `${subject} timed out after ${error.timeoutMs} ms` };
  return { status: 'failed', reason: `${subject}${verb}${errorMessage(error)}` };
}
