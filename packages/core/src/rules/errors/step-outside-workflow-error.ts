import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** `@Step` in a class that has no `@Workflow`. */
export class StepOutsideWorkflowError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.StepOutsideWorkflow;
  constructor(className: string, property: string) {
    super({
      workflow: className,
      target: { kind: 'strayDecorator', property, decorator: 'Step' },
      problem: `class ${className} has @Step on '${property}' but no @Workflow, so the step never runs.`,
      fix: `add @Workflow({ name: '…', description: '…' }) to class ${className}.`,
    });
  }
}
