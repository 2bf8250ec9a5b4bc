import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
  type McpHandlerRequestOptions,
  type McpServerFactory,
  type ServerNotifier,
} from '@modelcontextprotocol/server';
import type { ServeStdioOptions } from '@modelcontextprotocol/server/stdio';
import {
  firstServerOrExit,
  loadServingPackage,
  rememberRemoteAddress,
  reportServingFailure,
  withoutAnsweredRejections,
  serveHttpEndpoint,
  webSessionRequest,
  type HttpServing,
  type HttpServingOptions as KitHttpServingOptions,
  type StdioServing,
} from '../adapter-kit';

/**
 * Serves `factory` over this process's stdin/stdout through the SDK's `serveStdio`: a 2026-07-28
 * client and a 2025-era client (`initialize`) are both served, each connection pinned to one
 * server from the factory. One server is built and validated first: a broken workflow is printed
 * on stderr with its code, workflow, step and fix, and the process exits with code 1; a factory
 * that fails later is reported the same way (`onerror`). stdout is the protocol channel: log with
 * `console.error`.
 *
 * @example
 * import { serveStdio, WorkflowServer } from '@mcpflow/core/v2';
 * await serveStdio(() => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint));
 */
export async function serveStdio(factory: McpServerFactory, options: ServeStdioOptions = {}): Promise<StdioServing> {
  const onerror = options.onerror ?? reportServingFailure;
  await firstServerOrExit(() => factory({ era: 'modern' }), onerror);
  // Loaded here, not at import: the stdio entry is for processes a host launches, not for every user of the adapter.
  const { serveStdio: sdkServeStdio } = await import('@modelcontextprotocol/server/stdio');
  return sdkServeStdio(factory, { ...options, onerror });
}

/**
 * How {@link serveHttp} serves on SDK 2.x: the options both lines share, and how 2025-era clients
 * are served.
 *
 * @example
 * await serveHttp(factory, { port: 0, legacy: 'reject' }); // a 2026-07-28-only endpoint
 */
export interface HttpServingOptions extends KitHttpServingOptions {
  /**
   * How 2025-era clients (those that open with `initialize`) are served:
   * - `'sessions'` (default): a session each, bounded by `maxSessions` and `sessionIdleTimeoutMs`;
   *   a workflow can ask them (elicitation, sampling) in the middle of a run;
   * - `'stateless'`: the SDK's stateless fallback, a server per request and no sessions;
   * - `'reject'`: not at all; the endpoint serves 2026-07-28 only.
   */
  legacy?: 'sessions' | 'stateless' | 'reject';
}

/** A running 2.x endpoint: the shared handle, and how to tell subscribed clients that a list changed. */
export interface HttpServingV2 extends HttpServing {
  /**
   * Publishes `list_changed` / `resources/updated` to the 2026-07-28 clients listening on this
   * endpoint (`subscriptions/listen`): with a server per request, no server instance outlives a
   * request to send them itself.
   */
  readonly notify: ServerNotifier;
}

/**
 * Serves `factory` over HTTP on SDK 2.x, safe by default. One server is built and validated before
 * listening: a broken workflow rejects (and is reported on stderr with its code, workflow, step and
 * fix). Protocol 2026-07-28 is served statelessly by the SDK's `createMcpHandler`, a server from
 * `factory` per request; 2025-era clients get sessions (see {@link HttpServingOptions.legacy}). In
 * front of both: `Host` and `Origin` guards (local names only on a loopback binding), the body
 * bound (4 MiB, 413 beyond), and a bounded time to receive a request.
 *
 * @example
 * import { serveHttp, WorkflowServer } from '@mcpflow/core/v2';
 * const serving = await serveHttp(() => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint), { port: 3000 });
 * console.error(`notes serving on ${serving.url}`);
 */
export async function serveHttp(factory: McpServerFactory, options: HttpServingOptions = {}): Promise<HttpServingV2> {
  const legacy = options.legacy ?? 'sessions';
  return serveHttpEndpoint(options, {
    firstServer: () => factory({ era: 'modern' }),
    openTransport: (transportOptions) => new WebStandardStreamableHTTPServerTransport(transportOptions),
    async handling(sessions, { maxRequestBodySize, onerror: report }) {
      // What the SDK refused and answered is the client's to read, not a stack on stderr (as on 1.x).
      const onerror = withoutAnsweredRejections(report);
      const { toNodeHandler } = await loadServingPackage(
        'serveHttp on SDK 2.x',
        () => import('@modelcontextprotocol/node'),
        '@modelcontextprotocol/node',
      );
      const modern = createMcpHandler(factory, { legacy: legacy === 'stateless' ? 'stateless' : 'reject', maxRequestBodySize, onerror });
      const serveLegacy = (request: Request, requestOptions: McpHandlerRequestOptions = {}) =>
        sessions.serve({
          ...webSessionRequest(request),
          connect: async (transport) =>
            (await factory({ era: 'legacy', authInfo: requestOptions.authInfo, requestInfo: request })).connect(transport),
          forward: (transport, parsedBody) => transport.handleRequest(request, { ...requestOptions, parsedBody }),
        });
      const routeByEra = async (request: Request, requestOptions?: McpHandlerRequestOptions): Promise<Response> =>
        legacy === 'sessions' && (await isLegacyRequest(request, undefined, { maxRequestBodySize }))
          ? serveLegacy(request, requestOptions)
          : modern.fetch(request, requestOptions);
      return {
        // A node handler per request, to know the socket its web Request came from: the address is the client's key for quotas.
        handle: (request, response) =>
          toNodeHandler(
            {
              fetch: (webRequest, requestOptions) => {
                rememberRemoteAddress(webRequest, request.socket.remoteAddress);
                return routeByEra(webRequest, requestOptions);
              },
            },
            { maxRequestBodySize, onerror },
          )(request, response),
        close: () => modern.close(),
        expose: { notify: modern.notify },
      };
    },
  });
}
