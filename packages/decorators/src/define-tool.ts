import { noteKnownName, type ToolConfig, type ToolDefinition, type ToolHandler, type ZodShape } from '@mcpflow/core/model';

/**
 * Defines a tool once — name, zod input and output shapes, handler — without touching an SDK.
 * Register it on either SDK line's `WorkflowServer` (or let `use()` register it for a workflow
 * that calls it). A step that calls it by this object has its `args` checked by TypeScript, and
 * its `@Bind` property checked against the output by the mcpflow transformer.
 *
 * @example
 * ```ts
 * export const getWeather = defineTool('get_weather', {
 *   description: 'Current weather of a city',
 *   inputSchema: { city: z.string() },
 *   outputSchema: { celsius: z.number() },
 * }, async ({ city }) => {
 *   const weather = { celsius: 21 };
 *   return { content: [{ type: 'text', text: JSON.stringify(weather) }], structuredContent: weather };
 * });
 * ```
 */
export function defineTool<const Name extends string, Input extends ZodShape, Output extends ZodShape | undefined = undefined>(
  name: Name,
  config: ToolConfig<Input, Output>,
  handler: ToolHandler<Input, Output>,
): ToolDefinition<Name, Input, Output> {
  noteKnownName('defined', 'tools', name);
  return Object.freeze({ kind: 'tool', name, config, handler });
}
