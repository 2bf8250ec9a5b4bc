import type { WorkflowModel } from '../model';
import { WorkflowResourceVariableError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/** Instruction resources are embedded before any step runs, so their URIs are fixed: no `{…}`. */
export function checkWorkflowResources(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  workflow.resources.forEach((uri, index) => {
    const start = uri.search(/[{}]/);
    if (start >= 0) {
      const close = uri.indexOf('}', start);
      errors.push(
        new WorkflowResourceVariableError(workflow.name, uri, {
          kind: 'workflowResource',
          index,
          start,
          end: close > start ? close + 1 : start + 1,
        }),
      );
    }
  });
  return errors;
}
