/**
 * What the SDK's HTTP handlers (2.x `createMcpHandler`, `toNodeHandler`) pass to `onerror` for a
 * request they refused and already answered (bad JSON, a wrong content type or `Accept`, a missing
 * envelope, a second SSE stream), or for a client that went away: nothing failed on the server.
 */
const ANSWERED_REJECTION =
  /^(?:Parse error|Bad Request|Unsupported Media Type|Not Acceptable|Method Not Allowed|Conflict|Payload Too Large|Request Entity Too Large|Rejected inbound request)\b/;

/**
 * A client that went away mid-body: node's `aborted` error (code `ECONNRESET`), or the same error
 * re-wrapped by `toNodeHandler` as `new Error(String(error))` where it fails `instanceof Error`
 * (another realm: a vm context, jest), which keeps only its text.
 */
const CLIENT_ABORT = /^(?:Error: )?aborted$/;

function answeredOrAborted(error: Error): boolean {
  return (
    ANSWERED_REJECTION.test(error.message) ||
    CLIENT_ABORT.test(error.message) ||
    error.name === 'AbortError' ||
    (error as { code?: unknown }).code === 'ECONNRESET'
  );
}

/**
 * `onerror` without the requests the SDK refused and answered, nor client aborts: the client got
 * its error (or left), so stderr gets no stack for it, and 2.x's `serveHttp` reports what 1.x's
 * does — only failures no client sees.
 *
 * @example
 * ```ts
 * createMcpHandler(factory, { onerror: withoutAnsweredRejections(onerror) });
 * ```
 */
export function withoutAnsweredRejections(onerror: (error: Error) => void): (error: Error) => void {
  return (error) => {
    if (!answeredOrAborted(error)) onerror(error);
  };
}
