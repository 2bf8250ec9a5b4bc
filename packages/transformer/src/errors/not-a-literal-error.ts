import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from '@mcpflow/core/rules';

/** A name the type checker cannot pin to a literal, so the compile-time checks cannot read it. */
export class NotALiteralError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.NotALiteral;
  constructor(workflow: string, step: string | undefined, what: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `${what} is not a string literal, so mcpflow cannot check this workflow at compile time (it is still checked when the server starts).`,
      fix: `write it as a string literal, or a const / enum member whose type is a string literal.`,
    });
  }
}
