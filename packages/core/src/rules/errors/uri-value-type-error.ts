import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A URI variable filled with a value that is not a string, number or boolean (an object, an array). */
export class UriValueTypeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.TypeMismatch;
  /** @param value what the variable would be filled with, such as `an array constant` or `a value of type { id: string; }`. */
  constructor(workflow: string, step: string, variable: string, value: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `{${variable}} would be filled with ${value}, but a URI variable takes a string, number or boolean.`,
      fix: `bind {${variable}} to a field of string, number or boolean type, such as field('<binding>', '<path>.id').`,
    });
  }
}
