import { BINDINGS_METADATA } from '@mcpflow/core/model';
import { assertLegacyCall, ownMetadata, propertyName } from './record';

/**
 * Names a step's output so later steps can read it with `fromStep(name)` or `field(name, path)`.
 * The property's type is the output's type: the compiler checks `field` paths against it.
 *
 * @example
 * ```ts
 * @Step({ tool: 'analyze_code', args: { code: promptArg('code') } })
 * @Bind('analysis')
 * analysis!: { summary: string; issues: string[] };
 * ```
 */
export function Bind(name: string): PropertyDecorator {
  return (target, propertyKey) => {
    assertLegacyCall('Bind', propertyKey);
    const property = propertyName(propertyKey, 'Bind');
    const bindings = ownMetadata<Map<string, string[]>>(BINDINGS_METADATA, target, () => new Map());
    bindings.set(property, [name, ...(bindings.get(property) ?? [])]);
  };
}
