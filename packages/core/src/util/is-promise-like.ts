/**
 * Whether a value is to be awaited: a native promise (checked first, the common case) or any other
 * thenable, so a handler returning another library's promise is awaited too. The one rule for
 * sync-or-async everywhere: a plain value goes on without a microtask.
 *
 * @example
 * ```ts
 * const result = isPromiseLike(checked) ? await checked : checked;
 * ```
 */
export function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return value instanceof Promise || typeof (value as PromiseLike<T> | null | undefined)?.then === 'function';
}
