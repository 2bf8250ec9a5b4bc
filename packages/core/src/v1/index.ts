/** `@mcpflow/core/v1`: WorkflowServer for `@modelcontextprotocol/sdk` 1.x, and how to serve it. */
export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export {
  DEFAULT_MAX_TRACE_BYTES,
  DEFAULT_STEP_TIMEOUT_MS,
  EXECUTION_META_KEY,
  InvalidServerOptionError,
  QUESTION_META_KEY,
  REDACTED,
  type ExecutionLimits,
  type TraceTruncation,
  type ExecutionMeta,
  type ExecutionStatus,
  type RunEndEvent,
  type StepEvent,
  type StepStatus,
  type WorkflowHooks,
} from '../engine';
export * from './serve';
