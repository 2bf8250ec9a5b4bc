import { ErrorCodes, WorkflowDefinitionError, type IssueTarget } from '@mcpflow/core/rules';

/**
 * A `@Bind` property whose declared type the tool's output does not fit (compile time: tool
 * definitions with an output schema, and workflows called through `workflowTool(Class)`).
 */
export class BindingTypeError extends WorkflowDefinitionError {
  readonly code = ErrorCodes.BindingType;
  /**
   * @param eachElement the step runs `forEach`: the property is the array of results, `propertyType` its element's.
   * @param calledWorkflow the workflow the tool runs (`workflowTool(Class)`), whose bindings type its outputs; else its output schema does.
   */
  constructor(
    workflow: string,
    step: string,
    tool: string,
    binding: string,
    propertyType: string,
    outputType: string,
    eachElement: boolean,
    target: IssueTarget,
    calledWorkflow?: string,
  ) {
    super({
      workflow,
      step,
      target,
      problem: `@Bind('${binding}') declares ${eachElement ? 'each element' : 'its value'} as ${propertyType}, but tool ${tool} returns ${outputType} (${calledWorkflow ? `the bindings of workflow '${calledWorkflow}'` : 'its output schema'}), which does not fit.`,
      fix: calledWorkflow
        ? `declare the property as { status, outputs } with outputs typed as workflow '${calledWorkflow}' binds them (WorkflowToolResult<{ … }> from @mcpflow/decorators), or as unknown.`
        : `declare the property with the tool's output type (or a type that output fits), or change the tool's output schema.`,
    });
  }
}
