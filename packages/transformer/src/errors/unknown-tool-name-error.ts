import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from '@mcpflow/core/rules';

/**
 * A step's tool named by string that no tool of the program matches, while one is close: the
 * step's name is the likely typo (91016, the unregistered tool, found before start).
 */
export class UnknownToolNameError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.UnregisteredTool;
  constructor(workflow: string, step: string, tool: string, close: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `calls tool '${tool}', which nothing in this program defines or registers (defineTool, server.registerTool, a workflow's tool face). Did you mean '${close}'?`,
      fix: `the step's tool name '${tool}' is the likely typo: write tool: '${close}' (or its defineTool definition); if '${tool}' is registered where the compiler cannot see it, the server checks it at start.`,
    });
  }
}
