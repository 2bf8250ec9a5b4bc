import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/**
 * Builds a server (a `WorkflowServer` or any 1.x `McpServer`) for one connection: one stdio
 * connection, or one HTTP session. Keep it cheap: create shared pools and caches once, outside.
 *
 * @example
 * const factory: McpServerFactory = () => new WorkflowServer({ name: 'notes', version: '1.0.0' }).use(GetHint);
 */
export type McpServerFactory = () => McpServer | Promise<McpServer>;
