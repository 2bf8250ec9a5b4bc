/**
 * `@mcpflow/core`: SDK-neutral — importable in any project, whatever MCP SDK line is installed. The
 * workflow model, the validation rules and their error classes (`ErrorCodes`), what a run reports,
 * and the options and limits of serving and pausing. The servers are per SDK line:
 * `WorkflowServer`, `serveStdio` and `serveHttp` come from `@mcpflow/core/v1` (SDK 1.x) or
 * `@mcpflow/core/v2` (SDK 2.x).
 */
export * from './model';
export * from './rules';
export { readWorkflowModel, readWorkflowOptions, readStepRecords, type WorkflowClass } from './model/read-workflow';
export * from './adapter-kit/line-exports';
export {
  DEFAULT_ASK_TIMEOUT_MS,
  DEFAULT_MAX_STATE_BYTES,
  DEFAULT_STATE_TTL_SECONDS,
  MIN_TRACE_BYTES,
  SealedStateError,
  StateSealer,
  type AskRequest,
  type AskResponse,
  type ContentBlock,
  type EmbeddedResource,
  type OtherContent,
  type PromptMessage,
  type ResourceContents,
  type SealedStateProblem,
  type StateKeyMaterial,
  type StateSealingOptions,
  type TextContent,
} from './engine';
export { DEFAULT_MAX_REQUEST_BODY_SIZE, type HttpServingOptions } from './adapter-kit/serving';
export { DEFAULT_MAX_PENDING_ASKS, DEFAULT_MAX_PENDING_ASKS_PER_SESSION } from './adapter-kit/run/ask-limits';
export {
  DEFAULT_MAX_CONCURRENT_RUNS,
  DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION,
  DEFAULT_MAX_QUEUED_RUNS,
  DEFAULT_QUEUE_TIMEOUT_MS,
} from './adapter-kit/run/run-admission';
