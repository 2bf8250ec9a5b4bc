/**
 * `@mcpflow/decorators`: declare a workflow prompt as a decorated class. The decorators only record
 * metadata; `@mcpflow/core` reads it when the class is given to `WorkflowServer.use()`.
 */
export { Workflow } from './workflow';
export { Step } from './step';
export { Bind } from './bind';
export { TemplateBinding } from './template-binding';
export { promptArg, fromStep, field, constant, item } from './data-sources';
export { askUser, askModel, type AskUserOptions, type AskModelOptions } from './asks';
export { equals, oneOf, present, not } from './conditions';
export { defineTool } from './define-tool';
export { defineResource } from './define-resource';
export { workflowTool } from './workflow-tool';
export type { TypedStepOptions as StepOptions, ToolArguments, ArgumentsOf } from './step-options';
export type {
  WorkflowOptions,
  DataSource,
  JsonValue,
  RetryPolicy,
  Condition,
  ToolDefinition,
  ResourceDefinition,
  ToolConfig,
  ToolHandler,
  ToolHandlerResult,
  ResourceHandler,
  ResourceMetadata,
  Visibility,
  ResourceHandlerResult,
  TemplateVariables,
  AnswerSchemaLike,
  ExposeOptions,
  WorkflowClass,
  WorkflowToolDefinition,
  WorkflowToolResult,
  WorkflowRunStatus,
} from '@mcpflow/core/model';
