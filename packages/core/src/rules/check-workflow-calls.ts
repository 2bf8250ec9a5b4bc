import type { WorkflowModel } from '../model';
import { checkToolArguments, type ToolInputSchema } from './check-tool-arguments';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * The steps that call a workflow through `workflowTool(Class)` map only arguments it declares, and
 * constants it takes (a workflow's arguments are strings). `called` gives the called workflow's
 * model by tool name, for the tools the workflow calls by class; both readers know those classes,
 * so this is checked at `use()` and at compile time alike (a workflow tool named by string is
 * checked at `connect()`, like any registered tool).
 *
 * @example
 * ```ts
 * checkWorkflowCallArguments(coach, (tool) => (tool === 'get_hint' ? getHintModel : undefined));
 * ```
 */
export function checkWorkflowCallArguments(
  workflow: WorkflowModel,
  called: (tool: string) => Pick<WorkflowModel, 'arguments'> | undefined,
): WorkflowDefinitionError[] {
  return checkToolArguments(workflow, {
    toolInputSchema: (tool) => {
      const inner = called(tool);
      return inner && argumentsSchema(inner);
    },
  });
}

/** A workflow's arguments as a tool's input schema: its declared names, each taking a string. */
function argumentsSchema(workflow: Pick<WorkflowModel, 'arguments'>): ToolInputSchema {
  return {
    inputs: workflow.arguments.map((argument) => argument.name),
    open: false,
    acceptsString: () => true,
    compareValues: () => undefined,
    valueProblem: (_name, value) => (typeof value === 'string' ? undefined : 'workflow arguments are strings.'),
  };
}
