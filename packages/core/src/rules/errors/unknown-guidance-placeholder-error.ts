import { didYouMean, listNames } from '../closest-name';
import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** Guidance holds a `{placeholder}` that names no prompt argument. */
export class UnknownGuidancePlaceholderError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnknownGuidancePlaceholder;
  constructor(workflow: string, step: string, placeholder: string, declared: readonly string[], target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `guidance holds {${placeholder}}, but the workflow declares no argument '${placeholder}'. Declared arguments: ${listNames(declared)}.${didYouMean(placeholder, declared)}`,
      fix: `use a declared argument's name, declare '${placeholder}', or write {{${placeholder}}} for literal braces.`,
    });
  }
}
