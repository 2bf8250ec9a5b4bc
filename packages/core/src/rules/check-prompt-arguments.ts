import { workflowFaces, type WorkflowModel } from '../model';
import { PromptArgumentTypeError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * A workflow served as a prompt takes its arguments as strings (MCP prompt arguments are): each
 * argument's schema must accept one. A workflow served only as a tool may declare any schemas.
 * `acceptsString` reads an argument's schema (the adapter knows the schema library).
 *
 * @example
 * ```ts
 * const errors = checkPromptArguments(model, (argument) => schemaAcceptsString(shape[argument]));
 * ```
 */
export function checkPromptArguments(workflow: WorkflowModel, acceptsString: (argument: string) => boolean): WorkflowDefinitionError[] {
  if (!workflowFaces(workflow).prompt) return [];
  return workflow.arguments
    .filter((argument) => !acceptsString(argument.name))
    .map((argument) => new PromptArgumentTypeError(workflow.name, argument.name));
}
