import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from '@mcpflow/core/rules';

/** A value whose type cannot fit where it goes, when that is known at compile time. */
export class TypeMismatchError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.TypeMismatch;
  constructor(workflow: string, step: string, problem: string, fix: string, target: IssueTarget) {
    super({ workflow, step, target, problem, fix });
  }
}
