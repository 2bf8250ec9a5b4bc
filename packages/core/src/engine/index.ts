/**
 * The SDK-free engine: a workflow's plan (built once per class), the executor that advances an
 * execution state step by step, the trace, and the host interface an SDK adapter implements. Its
 * folders are layers — shared pieces ◄ plan ◄ steps ◄ flow ◄ execution ◄ pause — and this barrel,
 * on top of them, is what the adapters import.
 */
export type {
  ContentBlock,
  EmbeddedResource,
  OtherContent,
  PromptMessage,
  PromptResult,
  ResourceContents,
  ResourceResult,
  TextContent,
  ToolResult,
} from './content';
export type { Host, HostTool, ProgressUpdate, RunState, ToolInput, ToolRun, ToolsRevision, ValidatedInput } from './host';
export type { SignalSource } from './cancellation/signal-source';
export type {
  CarriedTraceContext,
  ObservedRun,
  ObservedRunEnd,
  ObservedStep,
  ObservedStepEnd,
  ResumedRun,
  RunObserver,
  StepObservation,
  StepObserver,
} from './run-observer';
export { DEFAULT_ASK_TIMEOUT_MS, type AskChannel, type InPlaceAskChannel, type RoundsAskChannel } from './asking/ask-channel';
export {
  QUESTION_META_KEY,
  type AskRequest,
  type AskResponse,
  type ElicitRequest,
  type FormSchema,
  type QuestionMeta,
  type SamplingRequest,
} from './asking/ask-request';
export { jsonSchemaOf as answerJsonSchema } from './asking/form-schema';
export {
  argumentsKeptSecret,
  constantsKeptSecret,
  planWorkflow,
  type CalledSecrets,
  type PlannedStep,
  type WorkflowPlan,
} from './plan/plan-workflow';
export {
  createExecutionState,
  type ExecutionPause,
  type ExecutionState,
  type ExecutionStop,
  type QuestionRecord,
} from './execution/execution-state';
export { advanceExecution, executeWorkflow, executionResult, stepContext, type ExecutionOptions } from './execution/execute-workflow';
export type { RunContext } from './execution/run-context';
export {
  DEFAULT_MAX_TRACE_BYTES,
  DEFAULT_STEP_TIMEOUT_MS,
  InvalidServerOptionError,
  MIN_TRACE_BYTES,
  applyLimits,
  type AppliedLimits,
  type ExecutionLimits,
} from './execution-limits';
export { boundTrace, type TraceTruncation } from './trace/bound-trace';
export { jsonBytesBound } from './trace/json-size';
export { continueWorkflowRound, executeWorkflowRound, type RoundPausing, type RoundResult } from './pause/execute-round';
export { openCheckpoint, sealCheckpoint, type RunBinding } from './pause/sealed-execution';
export { copyRunState, rerunExecution } from './pause/rerun-execution';
export { CheckpointChain } from './pause/checkpoint-chain';
export { referenceArguments, restoreArguments } from './pause/sensitive-references';
export {
  StateSealer,
  SealedStateError,
  ReplayGuardError,
  DEFAULT_MAX_STATE_BYTES,
  DEFAULT_STATE_TTL_SECONDS,
  deriveStateKeys,
} from './sealing';
export type {
  PausedRound,
  ReplayGuard,
  ReplayGuardProblem,
  ReplayVerdict,
  SealResult,
  SealedStateProblem,
  StateBinding,
  StateKeyMaterial,
  StateSealingOptions,
} from './sealing';
export {
  EXECUTION_META_KEY,
  RUN_META_KEY,
  TIMING_META_KEY,
  type ExecutionMeta,
  type ExecutionStatus,
  type RunEndEvent,
  type StepEvent,
  type StepMeta,
  type WorkflowHooks,
} from './execution/step-events';
export type { StepFlow } from './execution/execution-state';
export type { FinishedWork } from './flow/finished-work';
export type { IterationRef } from './flow/flow-observer';
export type { StepStatus } from './flow/flow-outcome';
export type { IterationsMeta } from './flow/iterations-meta';
export type { StepKind } from './steps/step-kind';
export type { StepContext } from './steps/step-context';
export { errorTypeOf, type StepOutcome } from './steps/step-outcome';
export { ResourceNotFoundError } from './results/resource-not-found-error';
export { REDACTED } from './redaction/redactor';
export type { RunSecrets } from './redaction/run-secrets';
export { decodeVariables } from './uri/decode-variables';
export type { ExpandableUriTemplate, UriTemplateParser, UriVariables } from './uri/uri-template';
export { MAX_MESSAGE_CHARACTERS, boundText, formatCount } from './text/bounded-text';
