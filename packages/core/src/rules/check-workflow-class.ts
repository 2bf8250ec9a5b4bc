import { NotAWorkflowError, StepOutsideWorkflowError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * What is wrong with a class that has no `@Workflow`: each `@Step` on it (91012, as the compiler
 * reports it), or, with no step at all, that it is not a workflow (91022).
 *
 * @example
 * ```ts
 * checkClassWithoutWorkflow('Helper', ['fetch']); // [StepOutsideWorkflowError: class Helper has @Step on 'fetch' but no @Workflow, …]
 * ```
 */
export function checkClassWithoutWorkflow(className: string, stepProperties: readonly string[]): WorkflowDefinitionError[] {
  if (!stepProperties.length) return [new NotAWorkflowError(className, false)];
  return stepProperties.map((property) => new StepOutsideWorkflowError(className, property));
}
