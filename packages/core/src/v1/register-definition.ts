import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { AnyDefinition } from '../engine';
import { uriTemplateVariableNames } from '../model';

/**
 * Registers a tool or resource definition on an SDK 1.x server, as `registerTool`/`registerResource`
 * would with the same config: a URI with `{variables}` becomes a `ResourceTemplate`.
 */
export function registerDefinition(server: McpServer, definition: AnyDefinition): void {
  if (definition.kind === 'tool') {
    const { title, description, inputSchema, outputSchema, annotations, _meta } = definition.config;
    server.registerTool(
      definition.name,
      { title, description, inputSchema, outputSchema, annotations, _meta } as never,
      definition.handler as never,
    );
  } else if (uriTemplateVariableNames(definition.uriTemplate).length) {
    const template = new ResourceTemplate(definition.uriTemplate, { list: undefined });
    server.registerResource(definition.name, template, definition.metadata, definition.handler as never);
  } else {
    server.registerResource(definition.name, definition.uriTemplate, definition.metadata, ((uri: URL, extra: unknown) =>
      definition.handler(uri, {}, extra as never)) as never);
  }
}
