import { didYouMean, listNames } from '../closest-name';
import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A step reads a prompt argument the workflow does not declare. */
export class UndeclaredPromptArgumentError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UndeclaredPromptArgument;
  constructor(workflow: string, step: string, argument: string, declared: readonly string[], target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `reads prompt argument '${argument}', which the workflow does not declare. Declared arguments: ${listNames(declared)}.${didYouMean(argument, declared)}`,
      fix: `declare '${argument}' in @Workflow({ arguments: { ${argument}: z.string() } }), or read a declared argument.`,
    });
  }
}
