import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createMcpHandler,
  isLegacyRequest,
  type McpHandlerRequestOptions,
  type McpServerFactory,
  type ServerNotifier,
  type WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import {
  SessionPool,
  listenHttp,
  loadServingPackage,
  resolveHttpServingOptions,
  type HttpServing,
  type HttpServingOptions as SharedHttpServingOptions,
} from '../../serving';
import { LegacySessionEndpoint } from './legacy-session-endpoint';

/**
 * How {@link serveHttp} serves on SDK 2.x: the options both lines share, and how 2025-era
 * clients are served.
 *
 * @example
 * await serveHttp(factory, { port: 0, legacy: 'reject' }); // a 2026-07-28-only endpoint
 */
export interface HttpServingOptions extends SharedHttpServingOptions {
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
 * Serves `factory` over HTTP on SDK 2.x, safe by default. Protocol 2026-07-28 is served statelessly
 * by the SDK's `createMcpHandler`, a server from `factory` per request; 2025-era clients get
 * sessions (see {@link HttpServingOptions.legacy}). In front of both: the SDK's `Host` and
 * `Origin` guards (local names only on a loopback binding), the body bound (4 MiB, 413 beyond),
 * and a bounded time to receive a request.
 *
 * @example
 * import { serveHttp, WorkflowServer } from '@mcpflow/core/v2';
 * const serving = await serveHttp(() => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint), { port: 3000 });
 * console.error(`notes serving on ${serving.url}`);
 */
export async function serveHttp(factory: McpServerFactory, options: HttpServingOptions = {}): Promise<HttpServingV2> {
  const resolved = resolveHttpServingOptions(options);
  const { hostHeaderValidation, originValidation, toNodeHandler } = await loadServingPackage(
    'serveHttp on SDK 2.x',
    () => import('@modelcontextprotocol/node'),
    '@modelcontextprotocol/node',
  );
  const legacy = options.legacy ?? 'sessions';
  const { maxRequestBodySize, onerror } = resolved;
  const modern = createMcpHandler(factory, { legacy: legacy === 'stateless' ? 'stateless' : 'reject', maxRequestBodySize, onerror });
  const sessions = new SessionPool<WebStandardStreamableHTTPServerTransport>({
    maxSessions: resolved.maxSessions,
    idleTimeoutMs: resolved.sessionIdleTimeoutMs,
    onerror,
  });
  const legacySessions = new LegacySessionEndpoint(factory, sessions, maxRequestBodySize);
  const routeByEra = async (request: Request, requestOptions?: McpHandlerRequestOptions): Promise<Response> =>
    legacy === 'sessions' && (await isLegacyRequest(request, undefined, { maxRequestBodySize }))
      ? legacySessions.fetch(request, requestOptions)
      : modern.fetch(request, requestOptions);
  const serveNode = toNodeHandler({ fetch: routeByEra }, { maxRequestBodySize, onerror });
  const validateHost = hostHeaderValidation(resolved.allowedHosts);
  const validateOrigin = originValidation(resolved.allowedOrigins);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!validateHost(request, response) || !validateOrigin(request, response)) return;
    const sessionId = request.headers['mcp-session-id'];
    if (typeof sessionId === 'string') response.once('close', sessions.track(sessionId));
    await serveNode(request, response);
  };
  const serving = await listenHttp(
    {
      handle,
      sessions: () => sessions.size,
      close: async () => {
        await Promise.all([modern.close(), sessions.closeAll()]);
      },
    },
    resolved,
  );
  return Object.assign(serving, { notify: modern.notify });
}
