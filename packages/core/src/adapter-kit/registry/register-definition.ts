import { z } from 'zod';
import { uriTemplateVariableNames, type AnyDefinition } from '../../model';
import type { AdapterLine } from '../adapter-line';
import type { McpServerLike } from './mcp-server-like';

/**
 * Registers a tool or resource definition on a line's server, as `registerTool`/`registerResource`
 * would with the same config: its zod raw shapes become `z.object()`s (which both lines take), and
 * a URI with `{variables}` becomes the line's `ResourceTemplate`.
 *
 * @example
 * ```ts
 * registerDefinition(server, line, getWeather);
 * ```
 */
export function registerDefinition(server: McpServerLike, line: AdapterLine<unknown, unknown>, definition: AnyDefinition): void {
  if (definition.kind === 'tool') {
    const { title, description, inputSchema, outputSchema, annotations, _meta } = definition.config;
    const config = {
      title,
      description,
      inputSchema: z.object(inputSchema),
      outputSchema: outputSchema && z.object(outputSchema),
      annotations,
      _meta,
    };
    server.registerTool(definition.name, config, definition.handler as never);
  } else if (uriTemplateVariableNames(definition.uriTemplate).length) {
    server.registerResource(
      definition.name,
      line.resourceTemplate(definition.uriTemplate) as never,
      definition.metadata,
      definition.handler as never,
    );
  } else {
    const read = (uri: URL, context: unknown) => definition.handler(uri, {}, context as never);
    server.registerResource(definition.name, definition.uriTemplate as never, definition.metadata, read as never);
  }
}
