import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A step reads a step name where a binding name belongs. */
export class StepNameUsedAsBindingError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.StepNameUsedAsBinding;
  constructor(workflow: string, step: string, name: string, bindingOfThatStep: string | undefined, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `reads '${name}', which is a step name, not a binding.${
        bindingOfThatStep
          ? ` Step '${name}' is bound as '${bindingOfThatStep}'. Did you mean '${bindingOfThatStep}'?`
          : ` Step '${name}' has no @Bind.`
      }`,
      fix: bindingOfThatStep
        ? `read the binding name '${bindingOfThatStep}' instead of the step name.`
        : `add @Bind('${name}') to step '${name}', or read an existing binding.`,
    });
  }
}
