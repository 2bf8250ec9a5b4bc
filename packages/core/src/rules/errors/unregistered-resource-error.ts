import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/** A step (or the workflow's instruction `resources`) reads or embeds a URI that no registered resource or resource template serves. */
export class UnregisteredResourceError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnregisteredResource;
  constructor(workflow: string, step: string | undefined, uri: string, registered: readonly string[], target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `uses resource '${uri}', which no registered resource or resource template serves. Registered: ${
        registered.length ? registered.map((name) => `'${name}'`).join(', ') : '(none)'
      }.`,
      fix: `register it with server.registerResource('…', '${uri}' or new ResourceTemplate('${uri}', …), …) before connecting.`,
    });
  }
}
