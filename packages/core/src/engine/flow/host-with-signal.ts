import type { Host } from '../host';

/**
 * The same host with another signal: the steps of a parallel group and the iterations of a loop
 * get one they can be cancelled by together (a failing sibling), still aborted with the request.
 * Methods stay bound to the adapter's own host, so its private state keeps working.
 */
export function hostWithSignal(host: Host, signal: AbortSignal): Host {
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(host, {
    get(target, key) {
      if (key === 'signal') return signal;
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      // Bound once per method, not per call: every iteration of a loop calls through here.
      let method = bound.get(key);
      if (method === undefined) bound.set(key, (method = (value as (...args: unknown[]) => unknown).bind(target)));
      return method;
    },
  });
}

/** A controller aborted with `parent` (and by its owner); `release` stops listening to the parent. */
export function childController(parent: AbortSignal): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  if (parent.aborted) controller.abort(parent.reason);
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => parent.removeEventListener('abort', onAbort) };
}
