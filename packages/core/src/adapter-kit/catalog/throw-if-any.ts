import { WorkflowValidationError, type WorkflowDefinitionError } from '../../rules';

/** Throws the one error found, or a `WorkflowValidationError` listing several; nothing when there are none. */
export function throwIfAny(errors: readonly WorkflowDefinitionError[]): void {
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new WorkflowValidationError(errors);
}
