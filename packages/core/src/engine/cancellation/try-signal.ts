import type { SignalSource } from './signal-source';

/**
 * The signal of one try of a step, made when a handler first reads it: aborted when the try runs
 * out of time or its request (or parallel group) is cancelled while it runs, never after the try
 * ended. A handler that never reads it costs no `AbortController` and no listener.
 *
 * @example
 * ```ts
 * const trySignal = new TrySignal(request.signal);
 * handler(args, withSignalFrom(extra, trySignal)); // made only if the handler reads extra.signal
 * trySignal.abort(new StepTimeoutError(30_000));
 * trySignal.end();
 * ```
 */
export class TrySignal implements SignalSource {
  private controller: AbortController | undefined = undefined;
  private abortReason: { readonly reason: unknown } | undefined = undefined;
  private ended = false;
  private onParentAbort: (() => void) | undefined = undefined;

  constructor(protected readonly parent: AbortSignal) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.abortReason) this.controller.abort(this.abortReason.reason);
      else if (!this.ended) this.followParent();
    }
    return this.controller.signal;
  }

  /** Aborts the try's signal (now if a handler has it, else as it is made); nothing once the try ended. */
  abort(reason: unknown): void {
    if (this.ended || this.abortReason) return;
    this.abortReason = { reason };
    this.controller?.abort(reason);
  }

  /** The try is over: its signal no longer follows the parent. */
  end(): void {
    this.ended = true;
    if (this.onParentAbort) this.parent.removeEventListener('abort', this.onParentAbort);
    this.onParentAbort = undefined;
  }

  /** Calls `parentAborted` when the parent aborts (now, if it has), until the try ends. */
  protected followParent(): void {
    if (this.onParentAbort || this.ended) return;
    if (this.parent.aborted) return this.parentAborted();
    this.onParentAbort = () => this.parentAborted();
    this.parent.addEventListener('abort', this.onParentAbort, { once: true });
  }

  /** The parent aborted while the try ran: so does the try's signal. */
  protected parentAborted(): void {
    this.abort(this.parent.reason);
  }
}
