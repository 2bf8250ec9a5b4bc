/**
 * The SDK-free engine: a workflow's plan (built once per class), the executor that advances an
 * execution state step by step, the trace, and the host interface an SDK adapter implements.
 */
export type { ContentBlock, PromptMessage, PromptResult, ResourceContents, ResourceResult, ToolResult } from './content';
export type { Host, HostTool, ProgressUpdate, ToolInput, ValidatedInput } from './host';
export { planWorkflow, type PlannedStep, type WorkflowPlan } from './plan/plan-workflow';
export { createExecutionState, type ExecutionState, type ExecutionStop } from './execution/execution-state';
export { advanceExecution, executeWorkflow, executionResult, stepContext } from './execution/execute-workflow';
export {
  EXECUTION_META_KEY,
  type ExecutionMeta,
  type ExecutionStatus,
  type IterationRef,
  type IterationsMeta,
  type StepEvent,
  type StepMeta,
  type StepStatus,
  type WorkflowHooks,
} from './execution/step-events';
export type { FinishedWork, StepFlow } from './execution/execution-state';
export { STEP_KINDS } from './steps/step-kinds';
export type { StepKind } from './steps/step-kind';
export type { StepContext } from './steps/step-context';
export type { StepOutcome } from './steps/step-outcome';
export { REDACTED } from './trace/redactor';
export { decodeVariables } from './uri/decode-variables';
export type { ExpandableUriTemplate, UriTemplateParser, UriVariables } from './uri/uri-template';
export { describeInputSchema, type JsonObjectSchema, type PropertySchema } from './tool-schema/describe-input-schema';
export { jsonSchemaAcceptsString, type JsonSchemaTypes } from './tool-schema/json-schema-accepts-string';
export { DefinitionRegistry, type AnyDefinition, type RegisteredNames } from './definitions/definition-registry';
export { WorkflowPlans } from './plan/workflow-plans';
