import type { AnyDefinition, WorkflowModel } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import { checkWorkflowNames } from '../../rules';
import type { DefinitionRegistry, RegisteredNames } from './definition-registry';
import type { WorkflowPlans } from './workflow-plans';
import { throwIfAny } from './throw-if-any';

/**
 * What `use()` checks before it registers anything, on either SDK line: each class (once per
 * process), prompt names against the workflows already served, and the definitions the classes
 * reference against what the server has registered. Throws the errors; returns the models and the
 * definitions still to register.
 *
 * @example
 * ```ts
 * const { models, definitions } = checkUse(plans, classes, this.models, this.definitions, this.registry);
 * ```
 */
export function checkUse(
  plans: WorkflowPlans,
  classes: readonly WorkflowClass[],
  served: readonly WorkflowModel[],
  definitions: DefinitionRegistry,
  registered: RegisteredNames,
): { models: WorkflowModel[]; definitions: AnyDefinition[] } {
  const { models, errors } = plans.check(classes);
  const pending = definitions.pending(classes, models, registered);
  throwIfAny([...errors, ...checkWorkflowNames([...served, ...models]), ...pending.errors]);
  return { models, definitions: pending.definitions };
}
