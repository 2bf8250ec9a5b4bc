import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  SessionMessages,
  ServingErrorCodes,
  SessionPool,
  checkHostHeader,
  checkOriginHeader,
  listenHttp,
  resolveHttpServingOptions,
  writeJsonRpcError,
  type HttpServing,
  type HttpServingOptions,
  type ResolvedHttpServingOptions,
} from '../../serving';
import type { McpServerFactory } from './server-factory';

/**
 * Serves `factory`'s servers over Streamable HTTP (protocol 2025-11-25, with sessions: a server
 * per session), safe by default:
 * - listens on 127.0.0.1 and refuses a `Host` or `Origin` that is not local (DNS rebinding);
 * - holds at most `maxSessions` sessions (100) and closes one idle for `sessionIdleTimeoutMs`
 *   (10 minutes), releasing its server;
 * - refuses bodies over `maxRequestBodySize` (4 MiB) with 413, and cuts off a client that takes
 *   longer than `requestTimeoutMs` (30 s) to send its request.
 *
 * @example
 * import { serveHttp } from '@mcpflow/core/v1';
 * const serving = await serveHttp(() => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint), { port: 3000 });
 * console.error(`notes serving on ${serving.url}`);
 */
export async function serveHttp(factory: McpServerFactory, options: HttpServingOptions = {}): Promise<HttpServing> {
  const resolved = resolveHttpServingOptions(options);
  const sessions = new SessionPool<StreamableHTTPServerTransport>({
    maxSessions: resolved.maxSessions,
    idleTimeoutMs: resolved.sessionIdleTimeoutMs,
    onerror: resolved.onerror,
  });
  return listenHttp(
    {
      handle: (request, response) => handleRequest(request, response, factory, sessions, resolved),
      sessions: () => sessions.size,
      close: () => sessions.closeAll(),
    },
    resolved,
  );
}

async function handleRequest(
  request: IncomingMessage,
  response: ServerResponse,
  factory: McpServerFactory,
  sessions: SessionPool<StreamableHTTPServerTransport>,
  options: ResolvedHttpServingOptions,
): Promise<void> {
  const host = checkHostHeader(request.headers.host, options.allowedHosts);
  const origin = host.ok ? checkOriginHeader(request.headers.origin, options.allowedOrigins) : host;
  if (!origin.ok) return writeJsonRpcError(response, 403, ServingErrorCodes.Refused, origin.message);

  const sessionId = request.headers['mcp-session-id'];
  if (typeof sessionId === 'string') {
    const transport = sessions.get(sessionId);
    if (!transport) return writeJsonRpcError(response, 404, ServingErrorCodes.SessionNotFound, SessionMessages.notFound(sessionId));
    response.once('close', sessions.track(sessionId));
    return transport.handleRequest(request, response);
  }
  if (request.method !== 'POST') return writeJsonRpcError(response, 400, ServingErrorCodes.Refused, SessionMessages.idRequired);
  if (!sessions.reserve()) return writeJsonRpcError(response, 503, ServingErrorCodes.Refused, SessionMessages.tooMany(options.maxSessions));
  return openSession(request, response, factory, sessions, options);
}

/** Serves a POST without a session id: an `initialize` opens a session; anything else is answered by the transport and dropped. */
async function openSession(
  request: IncomingMessage,
  response: ServerResponse,
  factory: McpServerFactory,
  sessions: SessionPool<StreamableHTTPServerTransport>,
  options: ResolvedHttpServingOptions,
): Promise<void> {
  let admitted = false;
  const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      admitted = true;
      sessions.admit(id, transport);
    },
    maxRequestBodySize: options.maxRequestBodySize,
  });
  // Set before connect(): the server chains its own close handling after this one.
  transport.onclose = () => {
    if (transport.sessionId) sessions.forget(transport.sessionId);
  };
  try {
    const server = await factory();
    await server.connect(transport);
    await transport.handleRequest(request, response);
  } finally {
    if (!admitted) {
      sessions.release();
      await transport.close();
    }
  }
}
