import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** A step option with a value it cannot take (a negative timeout, zero retry attempts, …). */
export class InvalidStepOptionError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.InvalidStepOption;
  constructor(workflow: string, step: string, option: string, problem: string, fix: string) {
    super({ workflow, step, target: { kind: 'stepOption', step, option }, problem: `option '${option}' ${problem}`, fix });
  }
}
