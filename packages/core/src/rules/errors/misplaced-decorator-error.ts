import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** `@Bind` or `@TemplateBinding` on a property without `@Step`. */
export class MisplacedDecoratorError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.MisplacedDecorator;
  constructor(workflow: string, property: string, decorator: string) {
    super({
      workflow,
      target: { kind: 'strayDecorator', property, decorator },
      problem: `property '${property}' has @${decorator} but no @Step, so nothing produces or uses it.`,
      fix: `add @Step({ tool: '…' }) or @Step({ resource: '…' }) to '${property}', or remove the @${decorator}.`,
    });
  }
}
