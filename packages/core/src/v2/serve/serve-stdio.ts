import type { McpServerFactory } from '@modelcontextprotocol/server';
import type { ServeStdioOptions } from '@modelcontextprotocol/server/stdio';

/** A connection served over stdio. */
export interface StdioServing {
  /** Closes the server the connection is pinned to, and the transport. */
  close(): Promise<void>;
}

/**
 * Serves `factory` over this process's stdin/stdout through the SDK's `serveStdio`: a 2026-07-28
 * client and a 2025-era client (`initialize`) are both served, each connection pinned to one
 * server from the factory. stdout is the protocol channel: log with `console.error`.
 *
 * @example
 * import { serveStdio, WorkflowServer } from '@mcpflow/core/v2';
 * await serveStdio(() => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint));
 * console.error('notes serving on stdio');
 */
export async function serveStdio(factory: McpServerFactory, options: ServeStdioOptions = {}): Promise<StdioServing> {
  // Loaded here, not at import: the stdio entry is for processes a host launches, not for every user of the adapter.
  const { serveStdio: sdkServeStdio } = await import('@modelcontextprotocol/server/stdio');
  return sdkServeStdio(factory, options);
}
