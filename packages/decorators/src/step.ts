import {
  STEPS_METADATA,
  noteKnownName,
  type AnyToolDefinition,
  type StepOptions,
  type StepRecord,
  type WorkflowToolDefinition,
} from '@mcpflow/core/model';
import { assertLegacyCall, ownMetadata, propertyName } from './record';
import type { TypedStepOptions } from './step-options';

/**
 * Makes a property a step of its workflow: a tool to call (`tool`) or a resource to read
 * (`resource`, may hold `{vars}` filled by `@TemplateBinding`). Steps run in declaration order.
 * With a definition from `defineTool`, TypeScript checks `args`: each key is one of the tool's
 * inputs and each source's value type fits it.
 *
 * @example
 * ```ts
 * @Step({ tool: getMyProgress, args: { player: promptArg('player') }, guidance: "I'll check {player}'s progress." })
 * @Bind('progress')
 * progress!: { game_id: string };
 * ```
 */
export function Step<const Tool extends string | AnyToolDefinition | WorkflowToolDefinition | undefined = undefined>(
  options: TypedStepOptions<Tool>,
): PropertyDecorator {
  return (target, propertyKey) => {
    assertLegacyCall('Step', propertyKey);
    const record: StepRecord = { property: propertyName(propertyKey, 'Step'), options: options as StepOptions };
    ownMetadata<StepRecord[]>(STEPS_METADATA, target, () => []).push(record);
    noteStepNames(record.options);
  };
}

/**
 * Notes the tool and the resources a step names, so the testing kit knows them (`knownNames`). A
 * step's options are use()'s to check: whatever they hold (none, from JavaScript; a getter that
 * throws), noting never throws.
 */
function noteStepNames(options: StepOptions): void {
  try {
    const { tool, resource, resources } = (options ?? {}) as { tool?: unknown; resource?: unknown; resources?: unknown };
    const named = (value: unknown, key: 'name' | 'uriTemplate'): unknown =>
      typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : value;
    noteKnownName('used', 'tools', named(tool, 'name') as string);
    noteKnownName('used', 'resources', named(resource, 'uriTemplate') as string);
    if (Array.isArray(resources)) for (const uri of resources) noteKnownName('used', 'resources', uri as string);
  } catch {
    // Nothing noted: use() reports what is wrong with the options.
  }
}
