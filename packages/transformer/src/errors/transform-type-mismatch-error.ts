import { ErrorCodes, WorkflowDefinitionError } from '@mcpflow/core/rules';

/** A step's `transform` whose parameter does not accept the step's value, or whose result does not fit the `@Bind` property. */
export class TransformTypeMismatchError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.TransformTypeMismatch;
  constructor(workflow: string, step: string, problem: string, fix: string) {
    super({ workflow, step, target: { kind: 'transform', step }, problem, fix });
  }
}
