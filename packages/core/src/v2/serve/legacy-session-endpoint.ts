import { randomUUID } from 'node:crypto';
import {
  WebStandardStreamableHTTPServerTransport,
  type McpHandlerRequestOptions,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import { SessionMessages, ServingErrorCodes, type SessionPool } from '../../serving';

/**
 * Serves 2025-era clients with sessions, as the SDK documents for a sessionful deployment behind
 * `isLegacyRequest`: a server from the factory and a transport per session, routed by
 * `Mcp-Session-Id`. The sessions live in a bounded {@link SessionPool}. Sessions are what lets a
 * 2025 client answer a server's request (elicitation, sampling) in the middle of a workflow.
 *
 * @example
 * const legacy = new LegacySessionEndpoint(factory, pool, 4 * 1024 * 1024);
 * const response = await legacy.fetch(request);
 */
export class LegacySessionEndpoint {
  constructor(
    private readonly factory: McpServerFactory,
    private readonly sessions: SessionPool<WebStandardStreamableHTTPServerTransport>,
    private readonly maxRequestBodySize: number,
  ) {}

  /** Serves one 2025-era request. */
  async fetch(request: Request, options: McpHandlerRequestOptions = {}): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const transport = this.sessions.get(sessionId);
      if (!transport) return refusal(404, ServingErrorCodes.SessionNotFound, SessionMessages.notFound(sessionId));
      return transport.handleRequest(request, options);
    }
    if (request.method !== 'POST') return refusal(400, ServingErrorCodes.Refused, SessionMessages.idRequired);
    if (!this.sessions.reserve()) return refusal(503, ServingErrorCodes.Refused, SessionMessages.tooMany(this.sessions.capacity));
    return this.open(request, options);
  }

  /** Serves a POST without a session id: an `initialize` opens a session; anything else is answered by the transport and dropped. */
  private async open(request: Request, options: McpHandlerRequestOptions): Promise<Response> {
    let admitted = false;
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        admitted = true;
        this.sessions.admit(id, transport);
      },
      maxRequestBodySize: this.maxRequestBodySize,
    });
    // Set before connect(): the server chains its own close handling after this one.
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.forget(transport.sessionId);
    };
    try {
      const server = await this.factory({ era: 'legacy', authInfo: options.authInfo, requestInfo: request });
      await server.connect(transport);
      return await transport.handleRequest(request, options);
    } finally {
      if (!admitted) {
        this.sessions.release();
        await transport.close();
      }
    }
  }
}

function refusal(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
