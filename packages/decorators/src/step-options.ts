import type { AnyToolDefinition, DataSource, StepActionOptions, StepOptionsBase, WorkflowToolDefinition } from '@mcpflow/core/model';

/**
 * The `args` of a step calling a tool definition: each key is one of the tool's inputs, each
 * source's value type fits that input. Every key is optional: an input a step leaves out is
 * decided by the client's LLM at handoff.
 */
export type ToolArguments<Input> = { [Name in keyof Input]?: DataSource<Input[Name]> };

/** The `args` a step may pass to `Tool`: typed for a definition, any names for a tool named by string. */
export type ArgumentsOf<Tool> = Tool extends { readonly '~types'?: { readonly input: infer Input } }
  ? ToolArguments<Input>
  : Record<string, DataSource>;

/**
 * The options of `@Step`: exactly one action — `tool` (a name or a `defineTool` definition) or
 * `resource` (a URI template or a `defineResource` definition) — and the options every step takes.
 * One object type rather than a union, so TypeScript reports a wrong argument on the argument itself.
 */
export type TypedStepOptions<
  Tool extends string | AnyToolDefinition | WorkflowToolDefinition | undefined =
    string | AnyToolDefinition | WorkflowToolDefinition | undefined,
> = Omit<StepOptionsBase, 'args'> &
  Omit<StepActionOptions, 'tool'> & {
    /** The tool to call: its registered name, the definition from `defineTool`, or `workflowTool(Class)`. */
    tool?: Tool;
    /** Tool argument → where its value comes from; checked against a tool definition's input. */
    args?: ArgumentsOf<Tool>;
  };
