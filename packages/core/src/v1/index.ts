/**
 * `@mcpflow/core/v1`: mcpflow on `@modelcontextprotocol/sdk` 1.x — `WorkflowServer` and the serving helpers.
 */
export * from '../runtime';
export * from './serve';
