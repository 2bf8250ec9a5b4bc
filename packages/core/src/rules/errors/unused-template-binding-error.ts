import { didYouMean } from '../closest-name';
import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A `@TemplateBinding` names a variable that none of the step's URIs holds. */
export class UnusedTemplateBindingError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnusedTemplateBinding;
  constructor(workflow: string, step: string, variable: string, variables: readonly string[], target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `@TemplateBinding('${variable}', …) fills no variable: this step's URIs hold ${
        variables.length ? variables.map((name) => `{${name}}`).join(', ') : 'no variables'
      }.${didYouMean(variable, variables)}`,
      fix: `rename it to a variable of the URI, add {${variable}} to the URI, or remove the @TemplateBinding.`,
    });
  }
}
