export { WorkflowServer, type WorkflowServerOptions } from './workflow-server';
export { EXECUTION_META_KEY } from './executor/execute-workflow';
export type { ExecutionMeta, ExecutionStatus, StepEvent, StepStatus, WorkflowHooks } from './executor/step-events';
export { REDACTED } from './executor/redactor';
