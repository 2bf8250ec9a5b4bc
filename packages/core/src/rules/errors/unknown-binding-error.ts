import { didYouMean, listNames } from '../closest-name';
import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A step reads a binding that no step binds. */
export class UnknownBindingError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnknownBinding;
  constructor(workflow: string, step: string, binding: string, available: readonly string[], target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `reads binding '${binding}', but no step binds it. Bindings available here: ${listNames(available)}.${didYouMean(binding, available)}`,
      fix: `add @Bind('${binding}') to an earlier step, or read one of the available bindings.`,
    });
  }
}
