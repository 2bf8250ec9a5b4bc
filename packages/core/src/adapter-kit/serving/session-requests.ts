import type { IncomingMessage, ServerResponse } from 'node:http';
import { abandonedSignal } from './abandoned-requests';
import { writeJsonRpcError } from './json-rpc-error-response';
import { parseJsonBody, readJsonBody } from './request-body';
import type { SessionExchange } from './session-endpoint';

/** What a session exchange reads of its request, and how it refuses it: all of it but the line's transport calls. */
export type SessionRequest<R> = Pick<SessionExchange<unknown, R>, 'sessionId' | 'method' | 'body' | 'abandoned' | 'refuse'>;

/**
 * A Node request as a session exchange reads it (SDK 1.x's transports take Node's request and
 * response): its `Mcp-Session-Id`, its body read within `maxRequestBodySize`, abandoned when the
 * response closes first, refused with a JSON-RPC error. A body too large is left unread: the
 * connection closes after the answer.
 *
 * @example
 * ```ts
 * await sessions.serve({ ...nodeSessionRequest(request, response, maxRequestBodySize), connect, forward });
 * ```
 */
export function nodeSessionRequest(request: IncomingMessage, response: ServerResponse, maxRequestBodySize: number): SessionRequest<void> {
  const sessionId = request.headers['mcp-session-id'];
  return {
    sessionId: typeof sessionId === 'string' ? sessionId : undefined,
    method: request.method,
    body: () => readJsonBody(request, maxRequestBodySize),
    abandoned: abandonedSignal(response),
    refuse: (status, code, message) => writeJsonRpcError(response, status, code, message, status === 413 ? { connection: 'close' } : {}),
  };
}

/**
 * A web-standard request as a session exchange reads it (SDK 2.x's transports take a `Request`):
 * its body was read, within the bound, by the Node handler that made the request; refused with a
 * JSON-RPC error `Response`.
 *
 * @example
 * ```ts
 * const answer = await sessions.serve({ ...webSessionRequest(request), connect, forward });
 * ```
 */
export function webSessionRequest(request: Request): SessionRequest<Response> {
  return {
    sessionId: request.headers.get('mcp-session-id') ?? undefined,
    method: request.method,
    body: async () => parseJsonBody(await request.text()),
    abandoned: request.signal,
    refuse: (status, code, message) => Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status }),
  };
}
