import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** A `@Workflow` class with no `@Step`: it would be served as a prompt that does nothing. */
export class EmptyWorkflowError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.EmptyWorkflow;
  constructor(workflow: string, className: string) {
    super({
      workflow,
      target: { kind: 'workflowName' },
      problem: `class ${className} has no @Step property, so the prompt would run nothing and return only its plan.`,
      fix: `add a step, such as @Step({ tool: '…' }) on a property of ${className}, or register a plain prompt with server.registerPrompt() instead.`,
    });
  }
}
