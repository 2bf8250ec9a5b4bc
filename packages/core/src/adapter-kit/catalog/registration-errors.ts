import type { WorkflowModel } from '../../model';
import {
  checkRegistrations,
  checkToolArguments,
  type RegistrationLookup,
  type ToolSchemaLookup,
  type WorkflowDefinitionError,
} from '../../rules';

/**
 * What `validate()` (and so `connect()`) finds wrong with the workflows against the server's
 * registrations, on either SDK line: tools and resources nothing registers, and step arguments
 * their tool's input schema cannot take.
 *
 * @example
 * ```ts
 * throwIfAny(registrationErrors(this.workflows.map((workflow) => workflow.model), this.registry));
 * ```
 */
export function registrationErrors(
  models: readonly WorkflowModel[],
  registry: RegistrationLookup & ToolSchemaLookup,
): WorkflowDefinitionError[] {
  return models.flatMap((model) => [...checkRegistrations(model, registry), ...checkToolArguments(model, registry)]);
}
