import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from './workflow-definition-error';

/**
 * A step argument whose value cannot fit the tool's input: at compile time a `fromStep`/`field`
 * of the wrong type into a tool definition; at `connect()` a constant the input schema rejects or
 * a `promptArg` (always a string) into an input that takes no string.
 */
export class ArgumentTypeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.ArgumentType;
  constructor(workflow: string, step: string, tool: string, argument: string, problem: string, fix: string, target: IssueTarget) {
    super({ workflow, step, target, problem: `argument '${argument}' of tool ${tool} ${problem}`, fix });
  }
}
