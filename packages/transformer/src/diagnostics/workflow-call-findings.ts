import { stepTool, workflowFaces } from '@mcpflow/core/model';
import {
  WorkflowToolNotExposedError,
  checkToolArguments,
  checkWorkflowCycles,
  type ToolInputSchema,
  type WorkflowDefinitionError,
} from '@mcpflow/core/rules';
import type { AnalyzedWorkflow } from '../analyzer/analyzed-workflow';
import type { AnalyzerContext } from '../analyzer/analyzer-context';
import { calledWorkflows } from '../analyzer/called-workflows';

/**
 * What is wrong with the workflows of a file (`workflows`, complete ones) as callers of other
 * workflows: a `workflowTool(Class)` whose class is not served as a tool, an argument the called
 * workflow does not declare (or a constant that is not a string), and a ring of workflows calling
 * each other — through the classes they call and the workflow tools of the file named by string.
 * Each error comes with the workflow of the file it is reported on.
 */
export function workflowCallErrors(
  context: AnalyzerContext,
  workflows: readonly AnalyzedWorkflow[],
): { error: WorkflowDefinitionError; workflow: AnalyzedWorkflow }[] {
  const called = calledWorkflows(context, workflows);
  if (!called.size && !workflows.some((workflow) => workflowFaces(workflow.model).tool)) return [];
  const found: { error: WorkflowDefinitionError; workflow: AnalyzedWorkflow }[] = [];
  const inputs = new Map<string, ToolInputSchema>();
  for (const inner of called.values()) {
    const tool = workflowFaces(inner.model).tool;
    if (tool && inner.complete) inputs.set(tool.name, argumentsSchema(inner));
  }
  for (const workflow of workflows) {
    for (const step of workflow.model.steps) {
      const declaration = workflow.steps.get(step.name)?.calledWorkflow;
      const inner = declaration && called.get(declaration);
      if (inner?.complete && !workflowFaces(inner.model).tool)
        found.push({
          error: new WorkflowToolNotExposedError(workflow.model.name, step.name, inner.model.name, inner.model.className),
          workflow,
        });
    }
    const lookup = { toolInputSchema: (name: string) => (calls(workflow, name) ? inputs.get(name) : undefined) };
    for (const error of checkToolArguments(workflow.model, lookup)) found.push({ error, workflow });
  }
  const others = [...called.values()]
    .filter((inner) => inner.complete && !workflows.some((workflow) => workflow.nameNode === inner.nameNode))
    .map((inner) => inner.model);
  const byName = new Map(workflows.map((workflow) => [workflow.model.name, workflow]));
  for (const error of checkWorkflowCycles([...workflows.map((workflow) => workflow.model), ...others])) {
    const workflow = byName.get(error.workflow);
    if (workflow) found.push({ error, workflow });
  }
  return found;
}

/** Whether a workflow calls this tool through `workflowTool(Class)` (a tool named by string may be another one at run time). */
function calls(workflow: AnalyzedWorkflow, tool: string): boolean {
  return workflow.model.steps.some((step) => stepTool(step) === tool && workflow.steps.get(step.name)?.calledWorkflow !== undefined);
}

/** A workflow's arguments as a tool's input schema: its declared names, each a string. */
function argumentsSchema(workflow: AnalyzedWorkflow): ToolInputSchema {
  const names = workflow.model.arguments.map((argument) => argument.name);
  return {
    inputs: names,
    open: false,
    acceptsString: () => true,
    valueProblem: (_name, value) => (typeof value === 'string' ? undefined : `workflow arguments are strings, not ${typeof value}`),
  };
}
