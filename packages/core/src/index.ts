/**
 * `@mcpflow/core`: the workflow model, the validation rules shared with the compiler, and
 * `WorkflowServer`, which runs decorated workflows on `prompts/get`.
 */
export * from './runtime';
export * from './model';
export * from './rules';
export { readWorkflowModel, readWorkflowOptions, readStepRecords, type WorkflowClass } from './model/read-workflow';
