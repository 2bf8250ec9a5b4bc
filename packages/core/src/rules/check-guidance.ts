import { parseGuidance, type WorkflowModel } from '../model';
import { UnknownGuidancePlaceholderError } from './errors/unknown-guidance-placeholder-error';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/** Every `{placeholder}` in guidance names a declared prompt argument. */
export function checkGuidance(workflow: WorkflowModel): WorkflowDefinitionError[] {
  const errors: WorkflowDefinitionError[] = [];
  const declared = workflow.arguments.map((argument) => argument.name);
  for (const step of workflow.steps) {
    if (step.guidance === undefined) continue;
    for (const part of parseGuidance(step.guidance)) {
      if (part.kind === 'placeholder' && !declared.includes(part.name)) {
        errors.push(
          new UnknownGuidancePlaceholderError(workflow.name, step.name, part.name, declared, {
            kind: 'guidance',
            step: step.name,
            start: part.start,
            end: part.end,
          }),
        );
      }
    }
  }
  return errors;
}
