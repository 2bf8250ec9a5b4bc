import type { ServerResponse } from 'node:http';
import { requestIds } from './json-rpc-messages';

/** A session transport as far as handing it a message goes: both SDK lines' transports have this. */
export interface MessageReceiver {
  onmessage?: (message: CancelledNotification) => void;
}

/** The notification a client sends when it gives a request up. */
interface CancelledNotification {
  jsonrpc: '2.0';
  method: 'notifications/cancelled';
  params: { requestId: string | number; reason: string };
}

const REASON = 'the client closed the connection before the response';

/**
 * A signal aborted when the client goes away (closes the connection) before `response` is complete.
 *
 * @example
 * cancelWhenAbandoned(transport, body, abandonedSignal(response));
 */
export function abandonedSignal(response: ServerResponse): AbortSignal {
  const abandoned = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) abandoned.abort();
  });
  return abandoned.signal;
}

/**
 * When the client of a session abandons a POST (the connection carrying its responses closes before
 * they are all sent), the requests it carried are cancelled as if the client had sent
 * `notifications/cancelled` for each: their handlers' signals abort, and what they wait for — a
 * question to the client, a tool — is released now, not when its own timeout ends. The SDKs keep a
 * session's requests running when their stream closes; the session itself stays open.
 *
 * @example
 * cancelWhenAbandoned(transport, body, request.signal);
 * await transport.handleRequest(request, { parsedBody: body });
 */
export function cancelWhenAbandoned(transport: MessageReceiver, body: unknown, abandoned: AbortSignal): void {
  const ids = requestIds(body);
  if (ids.length === 0) return;
  abandoned.addEventListener(
    'abort',
    () => {
      for (const requestId of ids)
        transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: REASON } });
    },
    { once: true },
  );
}
