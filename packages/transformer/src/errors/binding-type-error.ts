import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from '@mcpflow/core/rules';

/** A `@Bind` property whose declared type the tool's output does not fit (compile time, tool definitions with an output schema). */
export class BindingTypeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.BindingType;
  /** @param eachElement the step runs `forEach`: the property is the array of results, `propertyType` its element's. */
  constructor(
    workflow: string,
    step: string,
    tool: string,
    binding: string,
    propertyType: string,
    outputType: string,
    eachElement: boolean,
    target: IssueTarget,
  ) {
    super({
      workflow,
      step,
      target,
      problem: `@Bind('${binding}') declares ${eachElement ? 'each element' : 'its value'} as ${propertyType}, but tool ${tool} returns ${outputType} (its output schema), which does not fit.`,
      fix: `declare the property with the tool's output type (or a type that output fits), or change the tool's output schema.`,
    });
  }
}
