import { isIndexSegment, parseFieldPath, type DataSource } from '../../model';
import type { ExecutionScope, Resolver } from '../plan/resolve-source';

/** What a compiled reader returns when its source has no value: the planned resolver then says why. */
export const NO_VALUE: unique symbol = Symbol('no value');

/** Reads one data source's value against a scope, or `NO_VALUE`: built once per source, allocating nothing per read. */
export type Reader = (scope: ExecutionScope) => unknown;

/**
 * A direct reader of a data source: a prompt argument or a binding is one property read, a field
 * path a fixed walk over segments split (and classified as array indexes) once. Every other source
 * reads through its planned resolver. Agrees with `planResolver` on every value (the dual-engine
 * test compares them); when it answers `NO_VALUE`, the resolver gives the reason.
 *
 * @example
 * ```ts
 * compileReader(field('place', 'id'), resolver)({ args: {}, bindings: { place: { id: 'p-1' } } }); // 'p-1'
 * ```
 */
export function compileReader(source: DataSource, resolve: Resolver): Reader {
  switch (source.kind) {
    case 'promptArg': {
      const { name } = source;
      return (scope) => {
        const value = scope.args[name];
        return value === undefined ? NO_VALUE : value;
      };
    }
    case 'constant': {
      const { value } = source;
      return () => value;
    }
    case 'fromStep': {
      const { binding } = source;
      return (scope) => (Object.hasOwn(scope.bindings, binding) ? scope.bindings[binding] : NO_VALUE);
    }
    case 'field': {
      const { binding } = source;
      const segments = parseFieldPath(source.path);
      if (segments === undefined) return resolved(resolve);
      const steps = segments.map((segment) => ({ key: segment, index: isIndexSegment(segment) ? Number(segment) : -1 }));
      return (scope) => {
        if (!Object.hasOwn(scope.bindings, binding)) return NO_VALUE;
        let value = scope.bindings[binding];
        for (let position = 0; position < steps.length; position += 1) {
          const { key, index } = steps[position];
          if (Array.isArray(value)) {
            if (index < 0 || index >= value.length) return NO_VALUE;
            value = value[index];
          } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, key)) {
            value = (value as Record<string, unknown>)[key];
          } else {
            return NO_VALUE;
          }
        }
        return value === undefined ? NO_VALUE : value;
      };
    }
    default:
      return resolved(resolve);
  }
}

function resolved(resolve: Resolver): Reader {
  return (scope) => {
    const resolution = resolve(scope);
    return resolution.ok ? resolution.value : NO_VALUE;
  };
}
