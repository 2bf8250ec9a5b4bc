import { ServingErrorCodes } from '../serving/json-rpc-error-response';

/** Why a run got no place: its session's queue or the process's was full, or it waited `queueTimeoutMs`. */
export type RunRefusalCause =
  | { readonly kind: 'process-queue-full'; readonly maxQueuedRuns: number; readonly maxConcurrentRuns: number }
  | {
      readonly kind: 'session-queue-full';
      readonly maxQueuedRuns: number;
      readonly perSession: number;
      readonly maxConcurrentRunsPerSession: number;
    }
  | {
      readonly kind: 'waited';
      readonly queueTimeoutMs: number;
      readonly cap: 'maxConcurrentRuns' | 'maxConcurrentRunsPerSession';
      readonly limit: number;
    };

/**
 * A run refused before any step because no place to execute came (DESIGN §1 "Load limits"): the
 * queue it would wait in was full (`maxQueuedRuns`: the process's, or its session's tenth of it), or
 * it waited `queueTimeoutMs` for a place under `maxConcurrentRuns` or `maxConcurrentRunsPerSession`.
 * Its `code` and message reach the client as the JSON-RPC error of the request (`prompts/get` and a
 * workflow tool's `tools/call` alike), on either line; `option` names the option that refused it.
 */
export class ConcurrentRunsRefusal extends Error {
  /** A transport-level refusal, as the serving helpers answer a full session pool. */
  readonly code = ServingErrorCodes.Refused;
  readonly option: 'maxQueuedRuns' | 'queueTimeoutMs';

  constructor(cause: RunRefusalCause) {
    super(refusalMessage(cause));
    this.name = 'ConcurrentRunsRefusal';
    this.option = cause.kind === 'waited' ? 'queueTimeoutMs' : 'maxQueuedRuns';
  }
}

function refusalMessage(cause: RunRefusalCause): string {
  switch (cause.kind) {
    case 'process-queue-full':
      return (
        `Refused: ${cause.maxQueuedRuns} workflow runs already wait in this server process (maxQueuedRuns: ${cause.maxQueuedRuns}) ` +
        `for a place among the ${cause.maxConcurrentRuns} it executes at once (maxConcurrentRuns). Retry later, or raise maxQueuedRuns.`
      );
    case 'session-queue-full':
      return (
        `Refused: ${cause.perSession} workflow runs of this session already wait (a tenth of maxQueuedRuns: ${cause.maxQueuedRuns}) ` +
        `for a place among the ${cause.maxConcurrentRunsPerSession} it executes at once (maxConcurrentRunsPerSession). ` +
        'Retry once some end, or raise maxQueuedRuns.'
      );
    case 'waited': {
      const holder = cause.cap === 'maxConcurrentRuns' ? 'this server process' : 'this session';
      return (
        `Refused: this run waited ${cause.queueTimeoutMs} ms (queueTimeoutMs) for a place among the ${cause.limit} workflow runs ` +
        `${holder} executes at once (${cause.cap}), and none freed. Retry later, or raise queueTimeoutMs or ${cause.cap}.`
      );
    }
  }
}
