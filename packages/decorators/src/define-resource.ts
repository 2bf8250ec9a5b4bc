import { noteKnownName, type ResourceDefinition, type ResourceHandler, type ResourceMetadata } from '@mcpflow/core/model';

/**
 * Defines a resource — a fixed URI — or a resource template — an RFC 6570 URI template whose
 * `{variables}` the handler receives decoded — once, without touching an SDK. A step that reads it
 * by this object has its `{variables}` checked against its `@TemplateBinding`s at compile time.
 *
 * @example
 * ```ts
 * export const walkthrough = defineResource('walkthrough', 'if://walkthrough/{game_id}', { mimeType: 'text/markdown' },
 *   async (uri, { game_id }) => ({ contents: [{ uri: uri.href, text: `Walkthrough of ${game_id}` }] }));
 * ```
 */
export function defineResource<const Name extends string, const Template extends string>(
  name: Name,
  uriOrTemplate: Template,
  metadata: ResourceMetadata,
  handler: ResourceHandler<Template>,
): ResourceDefinition<Name, Template> {
  noteKnownName('defined', 'resources', uriOrTemplate);
  return Object.freeze({ kind: 'resource', name, uriTemplate: uriOrTemplate, metadata, handler });
}
