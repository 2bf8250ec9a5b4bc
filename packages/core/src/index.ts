/**
 * `@mcpflow/core`: the workflow model, the validation rules shared with the compiler, the SDK-free
 * engine, and (for SDK 1.x users, as before) `WorkflowServer`, which runs decorated workflows on
 * `prompts/get`. The same server is `@mcpflow/core/v1`; SDK 2.x users import `@mcpflow/core/v2`.
 */
export * from './v1';
export * from './engine';
export * from './model';
export * from './rules';
export { readWorkflowModel, readWorkflowOptions, readStepRecords, type WorkflowClass } from './model/read-workflow';
