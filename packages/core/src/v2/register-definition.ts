import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { AnyDefinition } from '../engine';
import { uriTemplateVariableNames } from '../model';

/**
 * Registers a tool or resource definition on an SDK 2.x server. Its zod raw shapes are wrapped in
 * `z.object()`, as 2.x takes Standard Schemas; a URI with `{variables}` becomes a `ResourceTemplate`.
 */
export function registerDefinition(server: McpServer, definition: AnyDefinition): void {
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
    server.registerTool(definition.name, config as never, definition.handler as never);
  } else if (uriTemplateVariableNames(definition.uriTemplate).length) {
    const template = new ResourceTemplate(definition.uriTemplate, { list: undefined });
    server.registerResource(definition.name, template, definition.metadata, definition.handler as never);
  } else {
    server.registerResource(definition.name, definition.uriTemplate, definition.metadata, ((uri: URL, ctx: unknown) =>
      definition.handler(uri, {}, ctx as never)) as never);
  }
}
