import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A URI template that cannot be read. */
export class InvalidUriTemplateError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.InvalidUriTemplate;
  constructor(workflow: string, step: string, uri: string, detail: string, target: IssueTarget, fix?: string) {
    super({
      workflow,
      step,
      target,
      problem: `URI '${uri}' is not a valid RFC 6570 template: ${detail}.`,
      fix: fix ?? `close every '{' with '}' and name variables with letters, digits and '_'.`,
    });
  }
}
