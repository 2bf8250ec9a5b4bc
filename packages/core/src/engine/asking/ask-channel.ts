import type { AskRequest, AskResponse } from './ask-request';

/**
 * How long a run waits for one answer in place by default: 2 minutes, longer than an SDK's 60 s
 * request timeout (people take time to answer), short enough that abandoned questions do not
 * hold their runs for long.
 */
export const DEFAULT_ASK_TIMEOUT_MS = 2 * 60 * 1000;

/**
 * How a request can put questions to its client, as the host's adapter sees the connection:
 * - `in-place` (2025 sessions): each request is sent now and the run waits for the answer;
 * - `rounds` (protocol 2026-07-28): the run pauses, the adapter returns `input_required` with the
 *   requests and a sealed state, and the retry brings the answers as `responses`.
 *
 * @example
 * ```ts
 * const asking: AskChannel = { mode: 'in-place', supports: (kind) => kind in (client.capabilities ?? {}), send: (request, signal) => push(request, signal) };
 * ```
 */
export type AskChannel = InPlaceAskChannel | RoundsAskChannel;

interface AskChannelBase {
  /** Whether the client declared the capability a question needs. */
  supports(capability: 'elicitation' | 'sampling'): boolean;
}

export interface InPlaceAskChannel extends AskChannelBase {
  readonly mode: 'in-place';
  /** Sends one request to the client and resolves with its answer; rejects when the client fails or the signal aborts. */
  send(request: AskRequest, signal: AbortSignal): Promise<AskResponse>;
}

export interface RoundsAskChannel extends AskChannelBase {
  readonly mode: 'rounds';
  /** The answers the client's retry carried (`inputResponses`), by question key; absent on a first request. */
  readonly responses?: Readonly<Record<string, AskResponse>>;
}
