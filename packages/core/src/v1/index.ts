/** `@mcpflow/core/v1`: WorkflowServer for `@modelcontextprotocol/sdk` 1.x, and how to serve it. */
export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export { EXECUTION_META_KEY, REDACTED, type ExecutionMeta, type ExecutionStatus, type StepEvent, type StepStatus, type WorkflowHooks } from '../engine';
export * from './serve';
