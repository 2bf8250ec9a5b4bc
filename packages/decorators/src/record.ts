import 'reflect-metadata';
import { DecoratorModeError } from '@mcpflow/core/rules';

/**
 * The metadata list or map a decorator adds to, owned by `target` itself: a subclass starts from
 * a copy of what it inherits, so decorating it never changes its parent.
 */
export function ownMetadata<T extends unknown[] | Map<unknown, unknown>>(key: symbol, target: object, empty: () => T): T {
  const own = Reflect.getOwnMetadata(key, target) as T | undefined;
  if (own) return own;
  const inherited = Reflect.getMetadata(key, target) as T | undefined;
  const created = inherited ? (Array.isArray(inherited) ? ([...inherited] as T) : (new Map(inherited) as T)) : empty();
  Reflect.defineMetadata(key, created, target);
  return created;
}

/** The property name a decorator was applied to; symbols are not valid step names. */
export function propertyName(propertyKey: string | symbol, decorator: string): string {
  if (typeof propertyKey === 'symbol')
    throw new TypeError(`@${decorator} cannot decorate a symbol-keyed property (${String(propertyKey)}).`);
  return propertyKey;
}

/**
 * Throws a clear error when a decorator is called as a standard ECMAScript decorator (its second
 * argument a context object): mcpflow's decorators need TypeScript's `experimentalDecorators`.
 */
export function assertLegacyCall(decorator: string, key: unknown): void {
  if (typeof key === 'object' && key !== null && 'kind' in key) {
    throw DecoratorModeError.calledAsStandard(decorator, key as { kind?: unknown; name?: unknown });
  }
}
