import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkHostHeader, checkOriginHeader } from './header-guard';
import type { HttpServing } from './http-serving';
import type { ResolvedHttpServingOptions } from './http-serving-options';
import { ServingErrorCodes, writeJsonRpcError } from './json-rpc-error-response';
import type { ClosableSession, SessionPool } from './session-pool';

/** What a line's `serveHttp` hands {@link listenHttp}: its request handling, its sessions, what else to release. */
export interface HttpEndpoint {
  /** Handles a request for the endpoint's path, once its `Host` and `Origin` passed. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** The endpoint's 2025-era sessions: counted, kept from idling while a request of theirs runs, closed on `close()`. */
  readonly sessions: SessionPool<ClosableSession>;
  /** Releases what else the endpoint holds (in-flight stateless exchanges). */
  close?(): Promise<void>;
}

/** How often Node looks for requests over `requestTimeoutMs`: the most a request may outlive it. */
const CHECKING_INTERVAL_MS = 1000;

/**
 * Listens on `options.host`/`options.port` with the request time bounded; answers any path but
 * `options.path` with 404 and a `Host` or `Origin` not allowed with 403 (DNS rebinding), and
 * hands the rest to `endpoint`; a malformed `Host` (`evil.example@localhost`) is answered 400,
 * before anything parses it. A failure in `endpoint` is reported through `options.onerror`
 * and answered 500 with no detail (nothing internal leaks).
 *
 * @example
 * const serving = await listenHttp({ handle, sessions: pool }, options);
 */
export async function listenHttp(endpoint: HttpEndpoint, options: ResolvedHttpServingOptions): Promise<HttpServing> {
  const listener: RequestListener = (request, response) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== options.path) {
      writeJsonRpcError(response, 404, ServingErrorCodes.Refused, `Not found: the MCP endpoint is ${options.path}`);
      return;
    }
    const host = checkHostHeader(request.headers.host, options.allowedHosts);
    const origin = host.ok ? checkOriginHeader(request.headers.origin, options.allowedOrigins) : host;
    if (!origin.ok) return writeJsonRpcError(response, origin.status, ServingErrorCodes.Refused, origin.message);
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') response.once('close', endpoint.sessions.track(sessionId));
    endpoint.handle(request, response).catch((error: unknown) => {
      options.onerror(error instanceof Error ? error : new Error(String(error)));
      writeJsonRpcError(response, 500, ServingErrorCodes.InternalError, 'Internal error');
    });
  };
  // Bounds the time to receive a request, so a slow or stalled client cannot hold a socket forever;
  // a response (an SSE stream, a long workflow) is not bounded by it. Node checks the bound every
  // connectionsCheckingInterval (30 s by default, which let a request live twice its time): once a
  // second keeps it within a second.
  const httpServer = createServer(
    {
      requestTimeout: options.requestTimeoutMs,
      headersTimeout: options.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(CHECKING_INTERVAL_MS, options.requestTimeoutMs),
    },
    listener,
  );
  httpServer.maxConnections = options.maxConnections;
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, options.host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { address, family, port } = httpServer.address() as AddressInfo;
  const url = new URL(`http://${family === 'IPv6' ? `[${address}]` : address}:${port}${options.path}`);
  return {
    url,
    httpServer,
    get sessions() {
      return endpoint.sessions.size;
    },
    async close() {
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      try {
        await Promise.all([endpoint.close?.(), endpoint.sessions.closeAll()]);
      } finally {
        // Whatever failed above (a task store that could not hand its rounds over), the server stops listening.
        httpServer.closeAllConnections();
        await stopped;
      }
    },
  };
}
