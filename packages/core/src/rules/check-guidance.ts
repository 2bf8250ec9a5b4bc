import { ITEM_PLACEHOLDER, parseGuidance, type WorkflowModel } from '../model';
import { ItemOutsideForEachError, UnknownGuidancePlaceholderError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * Every `{placeholder}` in guidance names a declared prompt argument, except `{item}` and
 * `{item.a.b}`, which read the current element of a `forEach` step (and only there).
 */
export function checkGuidance(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const declared = workflow.arguments.map((argument) => argument.name);
  for (const step of workflow.steps) {
    if (step.guidance === undefined) continue;
    for (const part of parseGuidance(step.guidance)) {
      if (part.kind !== 'placeholder') continue;
      const target = { kind: 'guidance', step: step.name, start: part.start, end: part.end } as const;
      const readsItem =
        part.name === ITEM_PLACEHOLDER && (part.path !== undefined || step.forEach !== undefined || !declared.includes(part.name));
      if (readsItem) {
        if (step.forEach === undefined) errors.push(new ItemOutsideForEachError(workflow.name, step.name, 'step', target));
      } else if (!declared.includes(part.name)) {
        errors.push(new UnknownGuidancePlaceholderError(workflow.name, step.name, part.name, declared, target));
      }
    }
  }
  return errors;
}
