import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HttpServing } from './http-serving';
import type { ResolvedHttpServingOptions } from './http-serving-options';
import { ServingErrorCodes, writeJsonRpcError } from './json-rpc-error-response';

/** What an adapter hands {@link listenHttp}: its request handling, and how to release what it holds. */
export interface HttpEndpoint {
  /** Handles a request for the endpoint's path, after the path check. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Open sessions now (0 when stateless). */
  sessions(): number;
  /** Closes every session and in-flight exchange. */
  close(): Promise<void>;
}

/**
 * Listens on `options.host`/`options.port` with the request time bounded, answers any path but
 * `options.path` with 404, and hands the rest to `endpoint`. A failure in `endpoint` is reported
 * through `options.onerror` and answered 500 with no detail (nothing internal leaks).
 *
 * @example
 * const serving = await listenHttp({ handle, sessions: () => pool.size, close: () => pool.closeAll() }, options);
 */
export async function listenHttp(endpoint: HttpEndpoint, options: ResolvedHttpServingOptions): Promise<HttpServing> {
  const listener: RequestListener = (request, response) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== options.path) {
      writeJsonRpcError(response, 404, ServingErrorCodes.Refused, `Not found: the MCP endpoint is ${options.path}`);
      return;
    }
    endpoint.handle(request, response).catch((error: unknown) => {
      options.onerror(error instanceof Error ? error : new Error(String(error)));
      writeJsonRpcError(response, 500, ServingErrorCodes.InternalError, 'Internal error');
    });
  };
  const httpServer = createServer(listener);
  // Bounds the time to receive a request, so a slow or stalled client cannot hold a socket forever;
  // a response (an SSE stream, a long workflow) is not bounded by it.
  httpServer.requestTimeout = options.requestTimeoutMs;
  httpServer.headersTimeout = options.requestTimeoutMs;
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
      return endpoint.sessions();
    },
    async close() {
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      await endpoint.close();
      httpServer.closeAllConnections();
      await stopped;
    },
  };
}
