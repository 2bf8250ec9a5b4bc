/** `@mcpflow/core/v1`: WorkflowServer for `@modelcontextprotocol/sdk` 1.x. */
export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export {
  DEFAULT_MAX_TRACE_BYTES,
  DEFAULT_STEP_TIMEOUT_MS,
  EXECUTION_META_KEY,
  InvalidServerOptionError,
  REDACTED,
  type ExecutionLimits,
  type TraceTruncation,
  type ExecutionMeta,
  type ExecutionStatus,
  type StepEvent,
  type StepStatus,
  type WorkflowHooks,
} from '../engine';
