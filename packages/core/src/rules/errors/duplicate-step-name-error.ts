import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** Two steps share a name. */
export class DuplicateStepNameError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.DuplicateStepName;
  constructor(workflow: string, step: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `another step of this workflow is already named '${step}'.`,
      fix: `give one of them another name with @Step({ name: '…' }).`,
    });
  }
}
