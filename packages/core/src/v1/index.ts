/** `@mcpflow/core/v1`: WorkflowServer for `@modelcontextprotocol/sdk` 1.x, and how to serve it. Loads nothing of 2.x. */
export * from '../adapter-kit/line-exports';
export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export { serveHttp, serveStdio, type McpServerFactory } from './serve';
export type { HttpServingOptions } from '../adapter-kit';
