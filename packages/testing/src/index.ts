/**
 * `@mcpflow/testing`: run a workflow class in a test, through a real MCP client of either SDK line,
 * with stub tools and resources and scripted answers (`runWorkflow`).
 */
export { runWorkflow } from './run-workflow';
export { rerun, type RerunOptions } from './rerun';
export { decline, type Decline } from './answers/decline';
export type { Answer, AskedQuestion, ResourceStub, RunWorkflowOptions, ToolCall, ToolStub, WorkflowRun } from './run-options';
export { MissingSdkError } from './errors/missing-sdk-error';
export { RunWorkflowOptionError } from './errors/run-workflow-option-error';
export { UnknownRunKeyError, type RunKeyCandidates } from './errors/unknown-run-key-error';
