import { workflowFaces, type WorkflowModel } from '@mcpflow/core/model';
import {
  WorkflowToolNotExposedError,
  checkWorkflowCallArguments,
  checkWorkflowCycles,
  type WorkflowDefinitionError,
} from '@mcpflow/core/rules';
import type { AnalyzedWorkflow } from '../analyzer/analyzed-workflow';
import type { AnalyzerContext } from '../analyzer/analyzer-context';
import { calledWorkflows } from '../analyzer/called-workflows';

/**
 * What is wrong with the workflows of a file (`workflows`, complete ones) as callers of other
 * workflows, as `use()` finds it: a `workflowTool(Class)` whose class is not served as a tool, an
 * argument the called workflow does not declare (or a constant that is not a string), and a ring of
 * workflows calling each other — through the classes they call and the workflow tools of the file
 * named by string. Each error comes with the workflow of the file it is reported on.
 */
export function workflowCallErrors(
  context: AnalyzerContext,
  workflows: readonly AnalyzedWorkflow[],
): { error: WorkflowDefinitionError; workflow: AnalyzedWorkflow }[] {
  const called = calledWorkflows(context, workflows);
  if (!called.size && !workflows.some((workflow) => workflowFaces(workflow.model).tool)) return [];
  const found: { error: WorkflowDefinitionError; workflow: AnalyzedWorkflow }[] = [];
  for (const workflow of workflows) {
    const byTool = new Map<string, WorkflowModel>();
    for (const step of workflow.model.steps) {
      const declaration = workflow.steps.get(step.name)?.calledWorkflow;
      const inner = declaration && called.get(declaration);
      if (!inner?.complete) continue;
      const tool = workflowFaces(inner.model).tool;
      if (tool) byTool.set(tool.name, inner.model);
      else {
        const error = new WorkflowToolNotExposedError(workflow.model.name, step.name, inner.model.name, inner.model.className);
        found.push({ error, workflow });
      }
    }
    for (const error of checkWorkflowCallArguments(workflow.model, (tool) => byTool.get(tool))) found.push({ error, workflow });
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
