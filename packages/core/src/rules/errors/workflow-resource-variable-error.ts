import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A workflow-level instruction resource URI with a `{variable}` (or a stray brace): nothing can fill it. */
export class WorkflowResourceVariableError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.WorkflowResourceVariable;
  constructor(workflow: string, uri: string, target: IssueTarget) {
    super({
      workflow,
      target,
      problem: `instruction resource '${uri}' holds a '{…}' template expression, but workflow resources are embedded before any step runs, so nothing can fill it.`,
      fix: `use a fixed URI in @Workflow({ resources }), or move the URI to a step's resources and fill it with @TemplateBinding.`,
    });
  }
}
