import type { Host } from '../host';

/**
 * The same host with another signal: the steps of a parallel group and the iterations of a loop
 * get one they can be cancelled by together (a failing sibling), still aborted with the request.
 * Methods stay bound to the adapter's own host, so its private state keeps working.
 */
export function hostWithSignal(host: Host, signal: AbortSignal): Host {
  return new Proxy(host, {
    get(target, key) {
      if (key === 'signal') return signal;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
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
