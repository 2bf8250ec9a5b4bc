import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A step reads a binding that its own step or a later one binds. */
export class BindingUsedBeforeBoundError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.BindingUsedBeforeBound;
  constructor(workflow: string, step: string, binding: string, boundBy: string, target: IssueTarget) {
    const self = boundBy === step;
    super({
      workflow,
      step,
      target,
      problem: self
        ? `reads binding '${binding}', which this same step binds: a step cannot use its own output.`
        : `reads binding '${binding}' before it is bound: step '${boundBy}' binds it and runs later.`,
      fix: self
        ? `read a binding of an earlier step instead.`
        : `declare step '${boundBy}' above step '${step}' (steps run in declaration order).`,
    });
  }
}
