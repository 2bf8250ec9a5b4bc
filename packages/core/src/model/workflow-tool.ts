import 'reflect-metadata';
import { workflowFaces } from './expose';
import { WORKFLOW_METADATA, type WorkflowOptions } from './metadata';
import type { WorkflowToolDefinition } from './workflow-tool-definition';

/** A workflow class, as `workflowTool()` takes it. */
type AnyClass = WorkflowToolDefinition['workflow'];

const definitions = new WeakMap<AnyClass, WorkflowToolDefinition>();

/**
 * The tool definition of a workflow class, one per class (so two references are the same object).
 *
 * @example
 * ```ts
 * workflowToolDefinition(GetHint).name; // 'get_hint' (or its expose.tool.name)
 * ```
 */
export function workflowToolDefinition<Target extends AnyClass>(target: Target): WorkflowToolDefinition<Target> {
  let definition = definitions.get(target);
  if (!definition) {
    definition = Object.freeze({
      kind: 'tool' as const,
      workflow: target,
      get name(): string {
        const options = Reflect.getOwnMetadata(WORKFLOW_METADATA, target) as WorkflowOptions | undefined;
        if (!options) return target.name;
        return workflowFaces({ name: options.name, expose: options.expose }).tool?.name ?? options.name;
      },
    });
    definitions.set(target, definition);
  }
  return definition as WorkflowToolDefinition<Target>;
}

/**
 * True for what `workflowTool(Class)` returns.
 * @example `if (isWorkflowToolDefinition(options.tool)) serve(options.tool.workflow);`
 */
export function isWorkflowToolDefinition(value: unknown): value is WorkflowToolDefinition {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { kind?: unknown }).kind === 'tool' &&
    typeof (value as { workflow?: unknown }).workflow === 'function'
  );
}
