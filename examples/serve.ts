/**
 * How the examples serve: over stdio by default, or over Streamable HTTP on 127.0.0.1 with
 * `--http [--port N]` or `MCP_TRANSPORT=http PORT=N`. Each HTTP session gets a server of its own.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/** Serves `create()` over Streamable HTTP at http://127.0.0.1:<port>/mcp (port 0 picks a free one). */
export async function serveHttp(create: () => McpServer, port: number): Promise<Server> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer((request, response) => {
    void (async () => {
      if (new URL(request.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the MCP endpoint is /mcp\n');
        return;
      }
      const sessionId = request.headers['mcp-session-id'];
      let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (!transport && typeof sessionId === 'string') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            jsonrpc: '2.0',
            error: { code: -32001, message: `Session ${sessionId} not found: initialize a new one` },
            id: null,
          }),
        );
        return;
      }
      if (!transport) {
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => {
            sessions.set(id, created);
          },
        });
        created.onclose = () => {
          if (created.sessionId) sessions.delete(created.sessionId);
        };
        await create().connect(created);
        transport = created;
      }
      await transport.handleRequest(request, response);
    })().catch((error: unknown) => {
      console.error('HTTP request failed:', error);
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return http;
}

/** Runs an example server as its command line asks: stdio, or HTTP with `--http`. */
export async function serve(name: string, create: () => McpServer, argv = process.argv.slice(2), env = process.env): Promise<void> {
  if (!argv.includes('--http') && env.MCP_TRANSPORT !== 'http') {
    await create().connect(new StdioServerTransport());
    // stdout carries the protocol, so where the server serves goes to stderr.
    console.error(`${name} serving MCP over stdio`);
    return;
  }
  const flag = argv.indexOf('--port');
  const port = Number(flag >= 0 ? argv[flag + 1] : (env.PORT ?? 3000));
  const http = await serveHttp(create, port);
  console.error(`${name} listening on http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

/** The entry point of an example: serve, or print the error and exit 1. */
export function main(name: string, create: () => McpServer): void {
  serve(name, create).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
