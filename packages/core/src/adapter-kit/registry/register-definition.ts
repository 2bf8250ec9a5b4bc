import { z } from 'zod';
import { uriTemplateVariableNames, type AnyDefinition } from '../../model';
import type { AdapterLine } from '../adapter-line';
import type { ResourceHandle, TemplateHandle, ToolHandle } from './handles';
import { madeOfShape } from '../tools/tool-inputs';
import type { McpServerLike } from './mcp-server-like';
import { decodingCallback, type ServerRegistry } from './server-registry';

/**
 * Registers a tool or resource definition on a line's server, as `registerTool`/`registerResource`
 * would with the same config: its zod raw shapes become `z.object()`s (which both lines take), and
 * a URI with `{variables}` becomes the line's `ResourceTemplate`. A definition with `visibility:
 * 'workflow'` is kept in the server's registry only: workflows run it in process, and the SDK,
 * which never saw it, lists nothing and answers a client's call as for any unknown name.
 *
 * @example
 * ```ts
 * registerDefinition(server, line, registry, getWeather);
 * ```
 */
export function registerDefinition(
  server: McpServerLike,
  line: AdapterLine<unknown, unknown>,
  registry: ServerRegistry,
  definition: AnyDefinition,
): void {
  if (definition.kind === 'tool') {
    const { title, description, inputSchema, outputSchema, annotations, _meta, visibility } = definition.config;
    const config = {
      title,
      description,
      inputSchema: z.object(inputSchema),
      outputSchema: outputSchema && z.object(outputSchema),
      annotations,
      _meta,
    };
    madeOfShape(config.inputSchema, inputSchema);
    if (visibility === 'workflow')
      registry.tools.track(definition.name, privateHandle<ToolHandle>({ ...config, handler: definition.handler }));
    else server.registerTool(definition.name, config, definition.handler as never);
    return;
  }
  const { visibility, ...metadata } = definition.metadata;
  const isPrivate = visibility === 'workflow';
  if (uriTemplateVariableNames(definition.uriTemplate).length) {
    const template = line.resourceTemplate(definition.uriTemplate) as TemplateHandle['resourceTemplate'];
    if (isPrivate) {
      const readCallback = decodingCallback(definition.handler as TemplateHandle['readCallback']);
      registry.trackTemplate(definition.name, privateHandle<TemplateHandle>({ resourceTemplate: template, metadata, readCallback }));
    } else server.registerResource(definition.name, template as never, metadata, definition.handler as never);
    return;
  }
  const read = (uri: URL, context: unknown) => definition.handler(uri, {}, context as never);
  if (isPrivate) registry.resources.track(definition.uriTemplate, privateHandle<ResourceHandle>({ metadata, readCallback: read }));
  else server.registerResource(definition.name, definition.uriTemplate as never, metadata, read as never);
}

/** A handle like the SDK's, for what only the registry holds: enabled, and updated in place. */
function privateHandle<Handle extends { enabled: boolean; update(updates: object): void }>(
  fields: Omit<Handle, 'enabled' | 'update'> & Record<string, unknown>,
): Handle {
  const handle = {
    ...fields,
    enabled: true,
    update(updates: object) {
      Object.assign(handle, updates);
    },
  };
  return handle as unknown as Handle;
}
