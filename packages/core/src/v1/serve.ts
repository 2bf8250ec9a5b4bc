import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  firstServerOrExit,
  nodeSessionRequest,
  reportServingFailure,
  serveHttpEndpoint,
  type HttpServing,
  type HttpServingOptions,
  type StdioServing,
  type StdioServingOptions,
} from '../adapter-kit';

/**
 * Builds a server (a `WorkflowServer` or any 1.x `McpServer`) for one connection: one stdio
 * connection, or one HTTP session. Keep it cheap: create shared pools and caches once, outside.
 *
 * @example
 * const factory: McpServerFactory = () => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint);
 */
export type McpServerFactory = () => McpServer | Promise<McpServer>;

/**
 * Serves one server from `factory` over this process's stdin/stdout (protocol 2025-11-25, as SDK
 * 1.x speaks it), until the client closes stdin. The server is validated first: a broken workflow is printed on stderr with its
 * code, workflow, step and fix, and the process exits with code 1. stdout is the protocol channel:
 * log with `console.error`.
 *
 * @example
 * import { serveStdio } from '@mcpflow/core/v1';
 * await serveStdio(() => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint));
 */
export async function serveStdio(factory: McpServerFactory, options: StdioServingOptions = {}): Promise<StdioServing> {
  const server = await firstServerOrExit(factory, options.onerror ?? reportServingFailure);
  await server.connect(new StdioServerTransport());
  // 1.x's transport does not notice its client leaving (2.x's closes at the end of stdin): closing
  // ends the open questions and requests, which would otherwise keep the process alive.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= server.close());
  process.stdin.once('end', close).once('close', close);
  return { close };
}

/**
 * Serves `factory`'s servers over Streamable HTTP (protocol 2025-11-25, with sessions: a server
 * per session), safe by default:
 * - one server is built and validated before listening: a broken workflow rejects (and is reported
 *   on stderr with its code, workflow, step and fix);
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
export function serveHttp(factory: McpServerFactory, options: HttpServingOptions = {}): Promise<HttpServing> {
  return serveHttpEndpoint(options, {
    firstServer: factory,
    openTransport: (transportOptions) => new StreamableHTTPServerTransport(transportOptions),
    handling: (sessions, { maxRequestBodySize }) => ({
      handle: (request, response) =>
        sessions.serve({
          ...nodeSessionRequest(request, response, maxRequestBodySize),
          connect: async (transport) => (await factory()).connect(transport),
          forward: (transport, body) => transport.handleRequest(request, response, body),
        }),
    }),
  });
}
