import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from '@mcpflow/core/rules';

/** A step argument whose value type does not fit the tool's input (compile time: `fromStep`/`field` into a definition). */
export class ArgumentTypeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.ArgumentType;
  constructor(workflow: string, step: string, tool: string, argument: string, inputType: string, valueType: string, target: IssueTarget) {
    super({
      workflow,
      step,
      target,
      problem: `argument '${argument}' of tool ${tool} takes ${inputType}, but the value mapped to it is of type ${valueType}.`,
      fix: `map '${argument}' from a value of type ${inputType} (a deeper field() path, say), or change the tool's input schema.`,
    });
  }
}
