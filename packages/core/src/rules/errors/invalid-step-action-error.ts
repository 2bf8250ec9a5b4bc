import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** A step names both a tool and a resource, or neither. */
export class InvalidStepActionError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.InvalidStepAction;
  constructor(workflow: string, step: string, both: boolean) {
    super({
      workflow,
      step,
      target: { kind: 'stepAction', step },
      problem: both ? `names both a tool and a resource.` : `names neither a tool nor a resource.`,
      fix: `give @Step exactly one of { tool: 'name' } or { resource: 'scheme://uri' }.`,
    });
  }
}
