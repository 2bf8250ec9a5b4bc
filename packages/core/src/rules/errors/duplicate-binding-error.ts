import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** Two steps (or two `@Bind`s on one step) bind the same name, or one step is bound twice. */
export class DuplicateBindingError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.DuplicateBinding;
  constructor(workflow: string, step: string, binding: string, firstStep: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem:
        firstStep === step
          ? `has more than one @Bind ('${binding}' is one of them): a step binds its output once.`
          : `binds '${binding}', which step '${firstStep}' already binds.`,
      fix: firstStep === step ? `keep a single @Bind on this step.` : `give one of the two bindings another name.`,
    });
  }
}
