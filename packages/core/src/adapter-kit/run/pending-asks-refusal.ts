import { ServingErrorCodes } from '../serving/json-rpc-error-response';

/**
 * A run refused because too many answers are already awaited: on its session
 * (`maxPendingAsksPerSession`) or in the process (`maxPendingAsks`). Its `code` and message reach
 * the client as the JSON-RPC error of the request, on either SDK line.
 */
export class PendingAsksRefusal extends Error {
  /** A transport-level refusal, as the serving helpers answer a full session pool. */
  readonly code = ServingErrorCodes.Refused;

  constructor(
    readonly option: 'maxPendingAsksPerSession' | 'maxPendingAsks',
    readonly limit: number,
  ) {
    const holder = option === 'maxPendingAsks' ? 'this server process' : 'this session';
    super(
      `Refused: ${holder} already waits for ${limit} answers to questions (${option}: ${limit}). ` +
        `Answer or cancel them first, or raise ${option}.`,
    );
    this.name = 'PendingAsksRefusal';
  }
}
