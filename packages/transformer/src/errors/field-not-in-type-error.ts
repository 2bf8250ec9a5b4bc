import { ErrorCodes, WorkflowDefinitionError, didYouMean, type IssueTarget } from '@mcpflow/core/rules';

/** A `field()` path that the bound property's declared type does not have (compile time only). */
export class FieldNotInTypeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.FieldNotInType;
  constructor(
    workflow: string,
    step: string,
    binding: string,
    path: string,
    at: string,
    segment: string,
    typeText: string,
    candidates: readonly string[],
    target: IssueTarget,
  ) {
    super({
      workflow,
      step,
      target,
      problem: `field path '${path}' is not in binding '${binding}': ${at ? `'${at}'` : 'its type'} (${typeText}) has no '${segment}'.${didYouMean(segment, candidates)}`,
      fix: `use a path of the type declared on the @Bind('${binding}') property, or correct that property's type.`,
    });
  }
}
