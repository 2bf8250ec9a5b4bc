import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A `parallel` step reads the binding of a step in its own group, which runs at the same time. */
export class ParallelSiblingBindingError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.ParallelSiblingBinding;
  constructor(workflow: string, step: string, binding: string, sibling: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `reads binding '${binding}' of step '${sibling}', which runs in the same parallel group, so it has no value yet.`,
      fix: `remove 'parallel: true' from step '${step}' (or from step '${sibling}') so it runs after '${sibling}', or read a binding bound before the group.`,
    });
  }
}
