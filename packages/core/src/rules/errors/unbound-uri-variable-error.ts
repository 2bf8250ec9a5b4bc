import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A URI holds a `{variable}` that no `@TemplateBinding` fills. */
export class UnboundUriVariableError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnboundUriVariable;
  constructor(workflow: string, step: string, variable: string, uri: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `URI '${uri}' holds {${variable}}, but no @TemplateBinding('${variable}', …) fills it.`,
      fix: `add @TemplateBinding('${variable}', field('<binding>', '<path>')) (or promptArg/fromStep/constant) to this step.`,
    });
  }
}
