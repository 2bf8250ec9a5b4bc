import { errorMessage } from '../trace/messages';
import { StepCancelledError, StepTimeoutError } from './step-policy';

/**
 * How a step ended; only a completed step has a value. `paused`: it waits for the client's answers
 * (protocol 2026-07-28) and runs again, from its start, when the retry brings them.
 */
export type StepOutcome =
  | { readonly status: 'completed'; readonly value: unknown }
  | { readonly status: 'handoff' | 'failed' | 'cancelled'; readonly reason: string }
  | { readonly status: 'paused' };

/** The outcome of a step whose action threw: cancelled, timed out, or failed with the error's message. */
export function failedOutcome(error: unknown, subject: string, verb = ': '): StepOutcome {
  if (error instanceof StepCancelledError) return { status: 'cancelled', reason: `the request was cancelled during ${subject}` };
  if (error instanceof StepTimeoutError) return { status: 'failed', reason: `${subject} timed out after ${error.timeoutMs} ms` };
  return { status: 'failed', reason: `${subject}${verb}${errorMessage(error)}` };
}
