import type { ServerResponse } from 'node:http';

/**
 * Answers an HTTP request with a JSON-RPC error that no request id can be given for, the shape
 * both SDK lines use for transport-level refusals.
 *
 * @example
 * writeJsonRpcError(response, 404, -32001, 'Session not found: initialize a new session');
 */
export function writeJsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** JSON-RPC codes the serving helpers answer with, as the SDKs use them. */
export const ServingErrorCodes = {
  /** A body that is not JSON. */
  ParseError: -32700,
  /** A transport-level refusal (forbidden Host/Origin, a missing session id, too many sessions, a body too large). */
  Refused: -32000,
  /** An unknown or closed session id: the client should initialize a new session. */
  SessionNotFound: -32001,
  /** The server failed in a way the client cannot fix. */
  InternalError: -32603,
} as const;
