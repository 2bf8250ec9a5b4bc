import 'reflect-metadata';
import { WORKFLOW_METADATA, noteKnownName, type WorkflowOptions } from '@mcpflow/core/model';
import { assertLegacyCall } from './record';

/**
 * Declares a class as a workflow prompt. Its `@Step` properties run in declaration order when a
 * client calls `prompts/get`.
 *
 * @example
 * ```ts
 * @Workflow({ name: 'get_hint', description: 'Get a hint', arguments: { player: z.string() } })
 * class GetHint { ... }
 * server.use(GetHint);
 * ```
 */
export function Workflow(options: WorkflowOptions): ClassDecorator {
  return (target, ...rest: unknown[]) => {
    assertLegacyCall('Workflow', rest[0]);
    Reflect.defineMetadata(WORKFLOW_METADATA, options, target);
    for (const resource of Array.isArray(options?.resources) ? options.resources : [])
      noteKnownName('used', 'resources', (typeof resource === 'string' ? resource : resource?.uriTemplate) as string);
  };
}
