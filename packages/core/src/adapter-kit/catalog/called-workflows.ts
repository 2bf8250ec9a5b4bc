import { isWorkflowToolDefinition, type WorkflowToolDefinition } from '../../model';
import { readStepRecords, type WorkflowClass } from '../../model/read-workflow';

/** A step of a class that calls another workflow by its class: `@Step({ tool: workflowTool(Inner) })`. */
export interface WorkflowCall {
  /** The step's position among the class's steps. */
  readonly position: number;
  readonly definition: WorkflowToolDefinition;
}

const callsByClass = new WeakMap<WorkflowClass, readonly WorkflowCall[]>();

/** The steps of a class that call workflows by class, read from its metadata once per process. */
export function workflowCallsOf(target: WorkflowClass): readonly WorkflowCall[] {
  let calls = callsByClass.get(target);
  if (!calls) {
    calls = readStepRecords(target).flatMap((record, position) =>
      isWorkflowToolDefinition(record.options.tool) ? [{ position, definition: record.options.tool }] : [],
    );
    callsByClass.set(target, calls);
  }
  return calls;
}

/**
 * The classes a `use()` serves: those given, then the workflow classes their steps call through
 * `workflowTool()` that the server does not serve yet — and those these call, each once — as
 * `use()` registers the tool definitions a workflow references.
 *
 * @example
 * ```ts
 * withCalledWorkflows([Coach], served); // [Coach, GetHint]
 * ```
 */
export function withCalledWorkflows(classes: readonly WorkflowClass[], served: ReadonlyMap<WorkflowClass, unknown>): WorkflowClass[] {
  const all = [...classes];
  for (let index = 0; index < all.length; index += 1) {
    for (const { definition } of workflowCallsOf(all[index])) {
      const inner = definition.workflow;
      if (!served.has(inner) && !all.includes(inner)) all.push(inner);
    }
  }
  return all;
}
