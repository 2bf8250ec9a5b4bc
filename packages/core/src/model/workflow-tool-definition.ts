/** How a workflow run ended: the `status` of `_meta["mcpflow/execution"]` and of a workflow tool's result. */
export type WorkflowRunStatus = 'completed' | 'handoff' | 'failed' | 'cancelled';

/**
 * The `structuredContent` of a workflow served as a tool (and so the value a step calling it
 * binds): how the run ended, and each completed step's value by its `@Bind` name (redacted as the
 * trace is; the whole tool result, content included, is held to `maxTraceBytes`, and a value left
 * out for it is named in `truncated`). On failure, what completed before it.
 */
export interface WorkflowToolResult<Outputs extends Readonly<Record<string, unknown>> = Readonly<Record<string, unknown>>> {
  readonly status: WorkflowRunStatus;
  readonly outputs: Outputs;
  /**
   * Present when values were left out to keep the result within `maxTraceBytes`: the bindings in
   * `outputs` whose value a note (a string) replaced. Absent when every value is shown.
   */
  readonly truncated?: { readonly limitBytes: number; readonly outputs: readonly string[] };
}

/**
 * Any workflow class, as a step names it: something `new`-able whose class carries `@Workflow`.
 *
 * @example
 * ```ts
 * const target: WorkflowClass = ReviewWorkflow;
 * ```
 */
export type WorkflowClass = abstract new (...args: never[]) => unknown;

/**
 * A workflow served as a tool, as a step of another workflow calls it: what `workflowTool(Class)`
 * returns. Its `name` is the inner workflow's tool name (`expose.tool.name`, else its name), read
 * from the class when asked, so the class may be decorated after the reference is made. Not a tool
 * definition to register: `use()` serves the inner class itself (as it serves definitions).
 */
export interface WorkflowToolDefinition<Target extends WorkflowClass = WorkflowClass> {
  readonly kind: 'tool';
  readonly name: string;
  /** The inner workflow's class. */
  readonly workflow: Target;
  /**
   * Types only, never set: a workflow's arguments are strings, and its tool result is `{ status,
   * outputs }`. The mcpflow transformer checks the argument names and the outputs' types against
   * the inner class.
   */
  readonly '~types'?: { readonly input: Readonly<Record<string, string>>; readonly output: WorkflowToolResult };
}
