import type { SignalSource } from '../../engine';

/**
 * A copy of a request context object (1.x `extra`, 2.x `ctx.mcpReq`) whose `signal` is read from
 * `source` when a handler reads it, so a step's try makes its `AbortController` only for a tool
 * that looks at its signal. Everything else reads, spreads and enumerates as the copy does; a
 * handler that sets or deletes `signal` sees its own change.
 *
 * @example
 * ```ts
 * const extraForTry = withSignalFrom(extra, trySignal); // extraForTry.signal === trySignal.signal
 * ```
 */
export function withSignalFrom<T extends { readonly signal: AbortSignal }>(context: T, source: SignalSource): T {
  return signalFromSource({ ...context }, source);
}

/**
 * `withSignalFrom` on a copy the caller just made and hands over (one copy a try, not two): the
 * copy itself becomes the proxy's target.
 *
 * @example
 * ```ts
 * const extraForTry = signalFromSource({ ...extra, _meta: meta }, trySignal);
 * ```
 */
export function signalFromSource<T extends { readonly signal: AbortSignal }>(copy: T, source: SignalSource): T {
  return new Proxy(copy, new SignalFromSource<T>(source, copy.signal));
}

/** The proxy's traps: `signal` comes from the source while the copy still holds the request's own. */
class SignalFromSource<T extends { readonly signal: AbortSignal }> implements ProxyHandler<T> {
  constructor(
    private readonly source: SignalSource,
    private readonly requestSignal: AbortSignal,
  ) {}

  get(target: T, key: string | symbol, receiver: unknown): unknown {
    return key === 'signal' && target.signal === this.requestSignal ? this.source.signal : Reflect.get(target, key, receiver);
  }

  getOwnPropertyDescriptor(target: T, key: string | symbol): PropertyDescriptor | undefined {
    const descriptor = Reflect.getOwnPropertyDescriptor(target, key);
    if (key !== 'signal' || descriptor === undefined || target.signal !== this.requestSignal) return descriptor;
    return { ...descriptor, value: this.source.signal };
  }
}
