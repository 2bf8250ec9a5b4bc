import { resourceAction, type ResourceAction } from './actions/resource-action';
import { toolAction, type ToolAction } from './actions/tool-action';
import type { AnyResourceDefinition, AnyToolDefinition } from './definitions';
import type { StepActionKind } from './step-action-kind';
import type { WorkflowToolDefinition } from './workflow-tool-definition';

/** What a step does: exactly one action, of one of the kinds in `STEP_ACTIONS` (its `kind` says which). */
export type StepAction = ToolAction | ResourceAction;
export type { ResourceAction, ToolAction };

/** The `@Step` options that name a step's action: a step sets exactly one. */
export interface StepActionOptions {
  /** The tool to call: its registered name, the definition from `defineTool`, or a workflow served as a tool (`workflowTool(Class)`). */
  tool?: string | AnyToolDefinition | WorkflowToolDefinition;
  /** The URI or RFC 6570 template to read, or the definition from `defineResource`. */
  resource?: string | AnyResourceDefinition;
}

/**
 * Every kind of step action, in the order a step's options are read: the one table both readers
 * and the rules consult. A new kind is a file in `actions/`, its entry here, its member of
 * `StepAction` and its option in `StepActionOptions` (see CONTRIBUTING.md).
 *
 * @example
 * ```ts
 * STEP_ACTIONS.map((kind) => kind.option); // ['tool', 'resource']
 * ```
 */
export const STEP_ACTIONS: readonly StepActionKind[] = [toolAction, resourceAction];
