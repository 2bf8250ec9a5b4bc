/**
 * `@mcpflow/core/v2`: mcpflow on `@modelcontextprotocol/server` 2.x. Loads nothing of SDK 1.x.
 */
export * from './serve';
