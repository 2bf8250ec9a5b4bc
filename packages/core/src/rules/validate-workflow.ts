import type { WorkflowModel } from '../model';
import { checkDataSources } from './check-data-sources';
import { checkExpose } from './check-expose';
import { checkFlowOptions } from './check-flow-options';
import { checkGuidance } from './check-guidance';
import { checkPrevious } from './check-previous';
import { checkStructure } from './check-structure';
import { checkUriTemplates } from './check-uri-templates';
import { checkWorkflowResources } from './check-workflow-resources';
import { DuplicateWorkflowNameError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/** What `validateWorkflow` checks besides the workflow itself. */
export interface ValidateWorkflowOptions {
  /**
   * Check each class of `previous` by every rule too (default `true`). The transformer passes
   * `false`: it reads each previous class in its own file as a workflow of its own, and reports
   * its errors there, on its own literals.
   */
  readonly previousClasses?: boolean;
}

/** Every rule of one workflow's declaration that needs no type information and no server. */
export function validateWorkflow(workflow: WorkflowModel, options: ValidateWorkflowOptions = {}): WorkflowDefinitionError[] {
  return [
    ...checkStructure(workflow),
    ...checkFlowOptions(workflow),
    ...checkDataSources(workflow),
    ...checkUriTemplates(workflow),
    ...checkGuidance(workflow),
    ...checkWorkflowResources(workflow),
    ...checkExpose(workflow),
    ...checkPrevious(workflow),
    // Each previous class, by every rule: an earlier version is resumed by the same engine.
    ...(options.previousClasses === false ? [] : (workflow.previous ?? [])).flatMap(({ model }) =>
      model?.name === workflow.name && !model.previous?.length ? validateWorkflow(model) : [],
    ),
  ];
}

/** Prompt names are unique among workflows given to one server (or declared in one file). */
export function checkWorkflowNames(workflows: readonly Pick<WorkflowModel, 'name' | 'className'>[]): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const seen = new Map<string, string>();
  for (const workflow of workflows) {
    const first = seen.get(workflow.name);
    if (first !== undefined) errors.push(new DuplicateWorkflowNameError(workflow.name, workflow.className, first));
    else seen.set(workflow.name, workflow.className);
  }
  return errors;
}
