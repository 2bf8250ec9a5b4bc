import type { WorkflowModel } from '../model';
import { InvalidPreviousVersionError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * The classes of `@Workflow({ previous })`: each an earlier version of the same workflow — a
 * `@Workflow` of the same name, itself keeping no `previous` (the latest class lists them all).
 * Every other rule checks each of them as it checks the workflow (`validateWorkflow`).
 */
export function checkPrevious(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  for (const { className, model } of workflow.previous ?? []) {
    if (model === undefined) errors.push(new InvalidPreviousVersionError(workflow.name, className, 'has no @Workflow.'));
    else if (model.name !== workflow.name)
      errors.push(new InvalidPreviousVersionError(workflow.name, className, `is workflow '${model.name}', not '${workflow.name}'.`));
    else if (model.previous?.length)
      errors.push(
        new InvalidPreviousVersionError(workflow.name, className, 'lists previous classes of its own: list them all in the latest class.'),
      );
  }
  return errors;
}
