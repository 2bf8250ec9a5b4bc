import { ErrorCodes, WorkflowDefinitionError, didYouMean, type IssueTarget } from '@mcpflow/core/rules';

/** An `item('a.b')` path that the `forEach` element's type does not have (compile time only). */
export class ItemPathNotInTypeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.ItemPathNotInType;
  constructor(
    workflow: string,
    step: string,
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
      problem: `item path '${path}' is not in the forEach element: ${at ? `'${at}'` : 'the element'} (${typeText}) has no '${segment}'.${didYouMean(segment, candidates)}`,
      fix: `use a path of the element type of the array forEach reads, or correct the type declared for that array.`,
    });
  }
}
