import { workflowFaces, type TaskSupport } from './expose';
import { mermaidGraph } from './mermaid-graph';
import { parallelGroups } from './parallel-groups';
import type { ShownValues } from './shown-values';
import type { WorkflowModel } from './workflow-model';

/** The `_meta` key a workflow's prompt and tool entries carry in `prompts/list` and `tools/list` (DESIGN §2.15). */
export const WORKFLOW_META_KEY = 'mcpflow/workflow';

/** One step as `_meta["mcpflow/workflow"]` lists it: what a client draws without the workflow's source. */
export interface StepInfo {
  readonly name: string;
  /** The step's action kind (`tool`, `resource`), `none` when it names none. */
  readonly kind: string;
  /** The parallel group the step runs in (`g<index of the group's first step>`), absent for a step that runs alone. */
  readonly group?: string;
  /** Present (`true`) when the step runs once per element of an array. */
  readonly forEach?: boolean;
  /** Present (`true`) when the step runs only when a condition holds. */
  readonly when?: boolean;
}

/**
 * What `_meta["mcpflow/workflow"]` holds: the workflow's name, its steps in the order they run, the
 * Mermaid text `mcpflow graph` prints, and whether its tool runs as an MCP task where the server
 * serves tasks (`tools/list` of protocol 2026-07-28 no longer says).
 */
export interface WorkflowMeta {
  readonly name: string;
  readonly steps: readonly StepInfo[];
  readonly mermaid: string;
  readonly task?: TaskSupport;
  /** The arguments whose values are sensitive, by name (absent when none): a client keeps their values out of what it shows and stores. */
  readonly sensitive?: readonly string[];
}

/**
 * A workflow's `_meta["mcpflow/workflow"]` value: its steps (name, action kind, parallel group,
 * `forEach`, `when`) and its graph as `mermaidGraph` draws it — no sensitive value shows (`shown`).
 *
 * @example
 * ```ts
 * workflowMeta(readWorkflowModel(GetHint)!, shownValues(model));
 * // { name: 'get_hint', steps: [{ name: 'progress', kind: 'tool' }, …], mermaid: 'flowchart TD\n  start(["get_hint"])…' }
 * ```
 */
export function workflowMeta(model: WorkflowModel, shown: ShownValues): WorkflowMeta {
  const indexed = model.steps.map((step, index) => ({ step, index, parallel: step.parallel }));
  const steps = parallelGroups(indexed).flatMap((group) =>
    group.map(({ step }): StepInfo => ({
      name: step.name,
      kind: step.action?.kind ?? 'none',
      ...(group.length > 1 ? { group: `g${group[0].index}` } : {}),
      ...(step.forEach === undefined ? {} : { forEach: true }),
      ...(step.when === undefined ? {} : { when: true }),
    })),
  );
  const task = workflowFaces(model).tool?.task;
  const sensitive = model.arguments.filter((argument) => argument.sensitive).map((argument) => argument.name);
  return {
    name: model.name,
    steps,
    mermaid: mermaidGraph(model, { shown }),
    ...(task ? { task } : {}),
    ...(sensitive.length > 0 ? { sensitive } : {}),
  };
}
