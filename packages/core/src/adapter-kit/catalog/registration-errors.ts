import type { AnswerSchemaLike, WorkflowModel } from '../../model';
import { readWorkflowOptions, type WorkflowClass } from '../../model/read-workflow';
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
 * their tool's input schema cannot take (a `promptArg` gives what its workflow argument's schema
 * gives, read from the class).
 *
 * @example
 * ```ts
 * throwIfAny(registrationErrors(this.served, this.registry)); // a Map of workflow class → model
 * ```
 */
export function registrationErrors(
  workflows: ReadonlyMap<WorkflowClass, WorkflowModel>,
  registry: RegistrationLookup & ToolSchemaLookup,
): WorkflowDefinitionError[] {
  return [...workflows].flatMap(([target, model]) => [
    ...checkRegistrations(model, registry),
    ...checkToolArguments(model, registry, argumentSchemas(target)),
  ]);
}

/** A workflow class's argument schemas, by name. */
function argumentSchemas(target: WorkflowClass): Readonly<Record<string, AnswerSchemaLike | undefined>> {
  return (readWorkflowOptions(target)?.arguments ?? {}) as Readonly<Record<string, AnswerSchemaLike | undefined>>;
}
