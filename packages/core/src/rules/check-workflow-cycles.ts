import { stepTool, workflowFaces, type WorkflowModel } from '../model';
import { WorkflowCycleError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';

/**
 * Workflows served as tools do not call each other in a ring (a → b → a, or a workflow calling its
 * own tool), which would run until the request gives up. Checked over the workflows of one server
 * (at `use()`) or of one file and the classes it calls (at compile time); each ring is reported
 * once, on the step of the first workflow in `workflows` that starts it.
 *
 * @example
 * ```ts
 * checkWorkflowCycles([a, b]); // [WorkflowCycleError: Workflow 'a', step 'delegate': calls workflow tool 'b', … 'a' → 'b' → 'a' …]
 * ```
 */
export function checkWorkflowCycles(workflows: readonly WorkflowModel[]): WorkflowDefinitionError[] {
  const byTool = new Map<string, WorkflowModel>();
  for (const workflow of workflows) {
    const tool = workflowFaces(workflow).tool;
    if (tool && !byTool.has(tool.name)) byTool.set(tool.name, workflow);
  }
  const errors: WorkflowDefinitionError[] = [];
  const inReportedCycle = new Set<WorkflowModel>();
  for (const workflow of workflows) {
    const tool = workflowFaces(workflow).tool;
    if (!tool || inReportedCycle.has(workflow)) continue;
    const found = ringFrom(workflow, tool.name, byTool);
    if (!found) continue;
    errors.push(new WorkflowCycleError(workflow.name, found.step, found.tools));
    for (const name of found.tools) inReportedCycle.add(byTool.get(name)!);
  }
  return errors;
}

/** A path of workflow tools from `start` back to it, and the step of `start` it leaves by, if there is one. */
function ringFrom(
  start: WorkflowModel,
  startTool: string,
  byTool: ReadonlyMap<string, WorkflowModel>,
): { step: string; tools: string[] } | undefined {
  const visited = new Set<string>();
  const search = (workflow: WorkflowModel, path: string[]): string[] | undefined => {
    for (const step of workflow.steps) {
      const called = stepTool(step);
      if (called === undefined) continue;
      if (called === startTool) return [...path, called];
      const next = byTool.get(called);
      if (!next || visited.has(called)) continue;
      visited.add(called);
      const found = search(next, [...path, called]);
      if (found) return found;
    }
    return undefined;
  };
  for (const step of start.steps) {
    const called = stepTool(step);
    if (called === undefined || !byTool.has(called)) continue;
    const tools = called === startTool ? [startTool, startTool] : search(byTool.get(called)!, [startTool, called]);
    if (tools) return { step: step.name, tools };
  }
  return undefined;
}
