import type { StepActionKind } from '../step-action-kind';

/** A step that calls a tool, by its registered name. */
export interface ToolAction {
  readonly kind: 'tool';
  readonly tool: string;
}

/** `@Step({ tool })`: a tool's name, or the definition from `defineTool`. */
export const toolAction: StepActionKind<ToolAction> = {
  kind: 'tool',
  option: 'tool',
  literal: 'string',
  definition: { kind: 'tool', field: 'name' },
  read: (tool) => ({ kind: 'tool', tool: tool as string }),
  tool: (action) => action.tool,
};
