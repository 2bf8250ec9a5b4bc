import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A `forEach` source that is not an array: a prompt argument (always a string), a non-array constant, or a non-array type. */
export class ForEachOverNonArrayError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.ForEachOverNonArray;
  constructor(workflow: string, step: string, what: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `runs forEach over ${what}, which is not an array.`,
      fix: `point forEach at an array: fromStep('<binding>') or field('<binding>', '<path>') whose type is an array, or an array constant().`,
    });
  }
}
