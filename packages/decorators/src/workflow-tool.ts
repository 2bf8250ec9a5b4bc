import { workflowToolDefinition, type WorkflowToolDefinition } from '@mcpflow/core/model';

/**
 * A workflow class served as a tool (`@Workflow({ expose: { tool: true } })`), as a step of another
 * workflow calls it: the step runs the inner workflow in process, as `tools/call` would, and binds
 * its result `{ status, outputs }`. `use()` serves the inner class too when the server does not yet.
 * Its arguments are the inner workflow's (strings); the mcpflow transformer checks their names and
 * the outputs' types against the inner class. A cycle of workflows is refused at `use()`.
 *
 * @example
 * ```ts
 * @Workflow({ name: 'get_hint', description: 'Get a hint', arguments: { player: z.string() }, expose: { tool: true } })
 * class GetHint { … }
 *
 * @Workflow({ name: 'coach', description: 'Coach a player', arguments: { player: z.string() } })
 * class Coach {
 *   @Step({ tool: workflowTool(GetHint), args: { player: promptArg('player') } })
 *   @Bind('hint')
 *   hint!: { status: string; outputs: { progress?: { room: string } } };
 * }
 * ```
 */
export function workflowTool<Target extends abstract new (...args: never[]) => unknown>(target: Target): WorkflowToolDefinition<Target> {
  return workflowToolDefinition(target);
}
