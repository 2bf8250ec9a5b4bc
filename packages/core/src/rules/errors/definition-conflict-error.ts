import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** Two different tool (or resource) definitions, or a definition and another registration, under one name. */
export class DefinitionConflictError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.DefinitionConflict;
  constructor(workflow: string, step: string, kind: 'tool' | 'resource', name: string, other: string) {
    super({
      workflow,
      step,
      target: { kind: 'stepAction', step },
      problem: `uses a ${kind} definition named '${name}', but ${other} is already registered under that name, so the server cannot tell which to run.`,
      fix: `use one definition object for '${name}' everywhere (export it from one module), or give one of them another name.`,
    });
  }
}
