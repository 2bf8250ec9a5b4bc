import type { RetryPolicy } from '../../model';

/** A try that ran out of time. */
export class StepTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = 'StepTimeoutError';
  }
}

/** The request was cancelled while a try ran. */
export class StepCancelledError extends Error {
  constructor() {
    super('the request was cancelled');
    this.name = 'StepCancelledError';
  }
}

/**
 * Runs one try. With a timeout, the try gets a signal of its own, aborted when the request is
 * cancelled or the time runs out, so the tool's `extra.signal` fires and a hung tool is not waited
 * for. Without one, the tool gets the request's signal.
 */
export async function runTry<T>(parent: AbortSignal, timeoutMs: number | undefined, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (parent.aborted) throw new StepCancelledError();
  if (timeoutMs === undefined) {
    // No timeout: the request's own signal is the one to pass on (it aborts on cancellation), and
    // a signal, a timer and listeners per try would be pure overhead on the hot path.
    const result = await run(parent);
    if (parent.aborted) throw new StepCancelledError();
    return result;
  }
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    onAbort = () => {
      controller.abort(parent.reason);
      reject(new StepCancelledError());
    };
    parent.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(() => {
      const error = new StepTimeoutError(timeoutMs);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(controller.signal), stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) parent.removeEventListener('abort', onAbort);
  }
}

/**
 * Tries `run` up to `retry.attempts` times while it throws or `failed` says its result is a failure,
 * waiting `backoffMs`, then twice that, and so on. Cancellation is never retried.
 */
export async function withRetry<T>(
  retry: RetryPolicy | undefined,
  signal: AbortSignal,
  run: () => Promise<T>,
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
