import type { Server } from 'node:http';

/**
 * A running HTTP endpoint, as `serveHttp` (from `@mcpflow/core/v1` or `@mcpflow/core/v2`) returns it.
 *
 * @example
 * const serving = await serveHttp(createServer, { port: 0 });
 * console.error(`serving on ${serving.url}`);
 * process.on('SIGINT', () => void serving.close());
 */
export interface HttpServing {
  /** Where clients connect: `http://<host>:<port><path>`, with the actual port when `port` was 0. */
  readonly url: URL;
  /** The underlying `node:http` server, listening. */
  readonly httpServer: Server;
  /** 2025-era sessions open now (or being created); 0 on a stateless endpoint. */
  readonly sessions: number;
  /** Stops listening, closes every session and in-flight exchange, and resolves once all are closed. */
  close(): Promise<void>;
}
