/** The constructor behind `ownRecord`: its instances' only prototype is an empty object with no prototype. */
const OwnRecord = function OwnRecord() {} as unknown as new () => object;
OwnRecord.prototype = Object.create(null) as object;

/**
 * An empty record that inherits nothing — `constructor`, `toString` or `__proto__` read as absent
 * and write as own keys, as on `Object.create(null)` — but keeps V8's fast properties, which a
 * null-prototype object gives up: on the hot path (a step's arguments, a run's bindings) reads,
 * writes and `JSON.stringify` cost what they cost on `{}`.
 *
 * @example
 * ```ts
 * const args = ownRecord<unknown>();
 * args['__proto__'] = 1; // an own key, as with Object.create(null)
 * ```
 */
export function ownRecord<T>(): Record<string, T> {
  return new OwnRecord() as Record<string, T>;
}
