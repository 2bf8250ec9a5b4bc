import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A `field()` path with an empty segment. */
export class InvalidFieldPathError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.InvalidFieldPath;
  constructor(workflow: string, step: string, path: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `field path '${path}' has an empty segment.`,
      fix: `write the path as names and array indexes joined by single dots, like 'items.0.name'.`,
    });
  }
}
