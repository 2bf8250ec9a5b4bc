import { TEMPLATE_BINDINGS_METADATA, type DataSource, type TemplateBindingRecord } from '@mcpflow/core/model';
import { assertLegacyCall, ownMetadata, propertyName } from './record';

/**
 * Fills the `{variable}` of a step's URIs (its `resource` and its `resources`) from a data source.
 * Values are encoded as RFC 6570 says, so they can never change the URI's structure.
 *
 * @example
 * ```ts
 * @Step({ resource: 'if://walkthrough/{game_id}' })
 * @TemplateBinding('game_id', field('progress', 'game_id'))
 * @Bind('walkthrough')
 * walkthrough!: string;
 * ```
 */
export function TemplateBinding(variable: string, source: DataSource): PropertyDecorator {
  return (target, propertyKey) => {
    assertLegacyCall('TemplateBinding', propertyKey);
    const property = propertyName(propertyKey, 'TemplateBinding');
    const templates = ownMetadata<Map<string, TemplateBindingRecord[]>>(TEMPLATE_BINDINGS_METADATA, target, () => new Map());
    // Decorators apply bottom-up; prepend so the list reads in source order.
    templates.set(property, [{ variable, source }, ...(templates.get(property) ?? [])]);
  };
}
