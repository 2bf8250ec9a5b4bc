/** `@mcpflow/core/v2`: WorkflowServer for the 2.x SDK (`@modelcontextprotocol/server`), and how to serve it. Loads nothing of 1.x. */
export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export {
  DEFAULT_MAX_TRACE_BYTES,
  DEFAULT_STEP_TIMEOUT_MS,
  EXECUTION_META_KEY,
  InvalidServerOptionError,
  QUESTION_META_KEY,
  REDACTED,
  type ExecutionLimits,
  type ExecutionMeta,
  type ExecutionStatus,
  type RunEndEvent,
  type StepEvent,
  type StepStatus,
  type TraceTruncation,
  type WorkflowHooks,
} from '../engine';
export * from './serve';
