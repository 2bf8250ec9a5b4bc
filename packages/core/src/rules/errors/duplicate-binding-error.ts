import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** Two steps (or two `@Bind`s on one step) bind the same name, or one step is bound twice. */
export class DuplicateBindingError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.DuplicateBinding;
  /** `firstStep` is the step that bound the name first; undefined when this same step binds twice. */
  constructor(workflow: string, step: string, binding: string, firstStep: string | undefined, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem:
        firstStep === undefined
          ? `has more than one @Bind ('${binding}' is one of them): a step binds its output once.`
          : `binds '${binding}', which step '${firstStep}' already binds.`,
      fix: firstStep === undefined ? `keep a single @Bind on this step.` : `give one of the two bindings another name.`,
    });
  }
}
