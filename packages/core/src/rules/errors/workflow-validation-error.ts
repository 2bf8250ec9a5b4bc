import type { WorkflowDefinitionError } from './workflow-definition-error';

/** Several definition errors at once; `errors` holds each. */
export class WorkflowValidationError extends Error {
  readonly errors: readonly WorkflowDefinitionError[];
  constructor(errors: readonly WorkflowDefinitionError[]) {
    super(`${errors.length} workflow definition errors:\n${errors.map((error) => `  - ${error.message}`).join('\n')}`);
    this.name = 'WorkflowValidationError';
    this.errors = errors;
  }
}
