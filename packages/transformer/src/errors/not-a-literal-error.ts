import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from '@mcpflow/core/rules';

/** Longest literal text quoted in a fix; a longer one is shown as `…`. */
const MAX_QUOTED = 80;

/**
 * A name the type checker cannot pin to a literal, so the compile-time checks cannot read it. Or,
 * with `plain` (the literal's source text), a plain value where a data source belongs
 * (`args: { city: 42 }`): the fix is `constant(42)`.
 */
export class NotALiteralError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.NotALiteral;
  constructor(workflow: string, step: string | undefined, what: string, target: IssueTarget, plain?: string) {
    const quoted = plain === undefined ? undefined : plain.length > MAX_QUOTED ? '…' : plain;
    super({
      workflow,
      step,
      target,
      problem:
        quoted === undefined
          ? `${what} is not a string literal, so mcpflow cannot check this workflow at compile time (it is still checked when the server starts).`
          : `${what} is the plain value ${quoted}, not a data source.`,
      fix:
        quoted === undefined
          ? `write it as a string literal, or a const / enum member whose type is a string literal.`
          : `write constant(${quoted}) to pass the value as it is (or read it with promptArg, fromStep, field, item, askUser or askModel).`,
    });
  }
}
