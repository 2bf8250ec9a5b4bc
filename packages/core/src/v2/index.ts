/** `@mcpflow/core/v2`: WorkflowServer for the 2.x SDK (`@modelcontextprotocol/server`), and how to serve it. Loads nothing of 1.x. */
export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export { EXECUTION_META_KEY, REDACTED, type ExecutionMeta, type ExecutionStatus, type StepEvent, type StepStatus, type WorkflowHooks } from '../engine';
export * from './serve';
