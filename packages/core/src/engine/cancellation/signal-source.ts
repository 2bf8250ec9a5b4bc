/**
 * Where a handler's signal comes from: read `signal` to get it. A try's source makes its
 * `AbortSignal` only when a handler first reads it, so a tool that never looks at its signal costs
 * no controller; the request's own signal is a source too (the host is one).
 *
 * @example
 * ```ts
 * const source: SignalSource = { signal: AbortSignal.timeout(1_000) };
 * await fetch(url, { signal: source.signal });
 * ```
 */
export interface SignalSource {
  readonly signal: AbortSignal;
}
