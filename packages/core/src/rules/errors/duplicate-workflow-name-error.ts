import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** Two workflows share a prompt name (in one file, or given to one server). */
export class DuplicateWorkflowNameError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.DuplicateWorkflowName;
  constructor(workflow: string, className: string, firstClassName: string, target: IssueTarget = { kind: 'workflowName' }) {
    super({
      workflow,
      target,
      problem: `class ${className} uses the prompt name '${workflow}', which class ${firstClassName} already uses.`,
      fix: `give one of the two workflows another name in @Workflow({ name: '…' }).`,
    });
  }
}
