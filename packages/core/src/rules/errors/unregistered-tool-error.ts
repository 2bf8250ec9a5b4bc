import { didYouMean, listNames } from '../closest-name';
import { ErrorCodes, WorkflowDefinitionError } from './workflow-definition-error';

/** A step calls a tool the server has not registered. */
export class UnregisteredToolError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnregisteredTool;
  constructor(workflow: string, step: string, tool: string, registered: readonly string[]) {
    super({
      workflow,
      step,
      target: { kind: 'stepAction', step },
      problem: `calls tool '${tool}', which this server has not registered. Registered tools: ${listNames(registered)}.${didYouMean(tool, registered)}`,
      fix: `register it with server.registerTool('${tool}', …) before connecting, or call a registered tool.`,
    });
  }
}
