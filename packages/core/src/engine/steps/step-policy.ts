import type { RetryPolicy } from '../../model';
import type { SignalSource } from '../cancellation/signal-source';
import { isPromiseLike } from '../../util/is-promise-like';
import { StepCancelledError } from './step-errors';
import { TimedTry } from './timed-try';

export { StepCancelledError, StepTimeoutError } from './step-errors';

/**
 * Runs one try, handing `run` a source of its signal: read `signal` to get it. With a timeout, the
 * try's signal is its own, aborted when the request is cancelled or the time runs out, so a hung
 * tool is not waited for — and made only if the handler reads it (`TimedTry`). Without one, the
 * source is `parent` itself: the request's own signal is what a handler gets, and a signal, a
 * deadline and a watch per try would be pure overhead. Returns `run`'s value as is when it is not
 * a promise. Throws (or rejects with) `StepCancelledError` when the request is cancelled before the
 * try starts, while a timed try runs, or by the time an untimed one returns.
 *
 * @example
 * ```ts
 * const raw = runTryLazily(host, stepTimeoutMs(step, context), (signal) => host.invokeTool(tool, name, args, signal));
 * const result = isPromiseLike(raw) ? await raw : raw;
 * ```
 */
export function runTryLazily<T>(
  parent: SignalSource,
  timeoutMs: number | undefined,
  run: (signal: SignalSource) => T | PromiseLike<T>,
): T | PromiseLike<T> {
  const request = parent.signal;
  if (request.aborted) throw new StepCancelledError();
  if (timeoutMs !== undefined) return new TimedTry<T, T>(request, timeoutMs).start({ run, fulfilled: (value) => value, rejected: rethrow });
  const value = run(parent);
  if (!isPromiseLike(value)) return notCancelled(request, value);
  return Promise.resolve(value).then((result) => notCancelled(request, result));
}

function rethrow(error: unknown): never {
  throw error;
}

function notCancelled<T>(request: AbortSignal, result: T): T {
  if (request.aborted) throw new StepCancelledError();
  return result;
}

/**
 * Runs one try as `runTryLazily` does, for a step kind that needs the signal itself: `run` gets
 * it made.
 *
 * @example
 * ```ts
 * await runTry(host.signal, stepTimeoutMs(step, context), (signal) => wait(ms, signal));
 * ```
 */
export async function runTry<T>(
  parent: AbortSignal,
  timeoutMs: number | undefined,
  run: (signal: AbortSignal) => T | PromiseLike<T>,
): Promise<T> {
  return runTryLazily({ signal: parent }, timeoutMs, (source) => run(source.signal));
}

/**
 * Tries `run` up to `retry.attempts` times while it throws or `failed` says its result is a failure,
 * waiting `backoffMs`, then twice that, and so on. Cancellation is never retried.
 */
export async function withRetry<T>(
  retry: RetryPolicy | undefined,
  signal: AbortSignal,
  run: () => T | PromiseLike<T>,
  failed: (result: T) => boolean,
): Promise<T> {
  const attempts = retry?.attempts ?? 1;
  let delay = retry?.backoffMs ?? 0;
  for (let attempt = 1; ; attempt += 1) {
    try {
      const result = await run();
      if (attempt >= attempts || !failed(result)) return result;
    } catch (error) {
      if (attempt >= attempts || error instanceof StepCancelledError) throw error;
    }
    if (delay > 0) await sleep(delay, signal);
    if (signal.aborted) throw new StepCancelledError();
    delay *= 2;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
