import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServerFactory } from './server-factory';

/** A connection served over stdio. */
export interface StdioServing {
  /** Closes the server and the transport. */
  close(): Promise<void>;
}

/**
 * Serves one server from `factory` over this process's stdin/stdout (protocol 2025-11-25, as SDK
 * 1.x speaks it). stdout is the protocol channel: log with `console.error`.
 *
 * @example
 * import { serveStdio } from '@mcpflow/core/v1';
 * await serveStdio(() => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint));
 * console.error('notes serving on stdio');
 */
export async function serveStdio(factory: McpServerFactory): Promise<StdioServing> {
  const server = await factory();
  await server.connect(new StdioServerTransport());
  return { close: () => server.close() };
}
