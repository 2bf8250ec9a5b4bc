import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** A class given to `server.use()` has no `@Workflow`. */
export class NotAWorkflowError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.NotAWorkflow;
  constructor(className: string, hasSteps: boolean) {
    super({
      workflow: className,
      target: { kind: 'workflowName' },
      problem: `class ${className} is not a workflow: it has no @Workflow${hasSteps ? ' (it does have @Step properties)' : ''}.`,
      fix: `decorate ${className} with @Workflow({ name: '…', description: '…' }) before passing it to server.use().`,
    });
  }
}
