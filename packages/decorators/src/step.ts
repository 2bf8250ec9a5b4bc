import { STEPS_METADATA, type StepOptions, type StepRecord } from '@mcpflow/core/model';
import { ownMetadata, propertyName } from './record';

/**
 * Makes a property a step of its workflow: a tool to call (`tool`) or a resource to read
 * (`resource`, may hold `{vars}` filled by `@TemplateBinding`). Steps run in declaration order.
 *
 * @example
 * ```ts
 * @Step({ tool: 'get_my_progress', args: { player: promptArg('player') }, guidance: "I'll check {player}'s progress." })
 * @Bind('progress')
 * progress!: { game_id: string };
 * ```
 */
export function Step(options: StepOptions): PropertyDecorator {
  return (target, propertyKey) => {
    const record: StepRecord = { property: propertyName(propertyKey, 'Step'), options };
    ownMetadata<StepRecord[]>(STEPS_METADATA, target, () => []).push(record);
  };
}
