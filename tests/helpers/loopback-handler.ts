import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { createMcpHandler } from '@modelcontextprotocol/server';

/**
 * Serves a 2.x `createMcpHandler` over node:http on 127.0.0.1 at a free port, and returns the
 * endpoint's URL; `closers` gets what stops the handler and the HTTP server (call them in `afterAll`).
 */
export async function servedOnLoopback(handler: ReturnType<typeof createMcpHandler>, closers: (() => Promise<unknown>)[]): Promise<URL> {
  const serve = toNodeHandler(handler);
  const http: Server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(
    () => handler.close(),
    () => new Promise((resolve) => http.close(resolve)),
  );
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}
