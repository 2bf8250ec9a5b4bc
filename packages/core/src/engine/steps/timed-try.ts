import { afterThisTurn, leaveTurn, type AfterTurn } from '../cancellation/after-turn';
import { TrySignal } from '../cancellation/try-signal';
import { isPromiseLike } from '../../util/is-promise-like';
import { StepCancelledError, StepTimeoutError } from './step-errors';

/**
 * The work of one try and what its end becomes: `run` gets the try's signal source; `fulfilled`
 * maps its value (a promise it returns keeps the try running, under the same time and request);
 * `rejected` maps an error — the handler's, `StepTimeoutError` or `StepCancelledError` — and may
 * rethrow it.
 */
export interface TryWork<T, R> {
  run(signal: TrySignal): T | PromiseLike<T>;
  fulfilled(value: T): R | PromiseLike<R>;
  rejected(error: unknown): R;
}

/**
 * One try of a step under a timeout. Its handler gets a `TrySignal` (an `AbortController` only if
 * it reads it); work that ends at once needs nothing more. Work that returns a promise is raced
 * against its time and its request — but a timer and a listener are set only if the try is still
 * running when the event loop's turn ends (`afterThisTurn`): a timer cannot fire before then, and
 * most tries in process (a tool answering in microtasks) have settled by then. The time is counted
 * from the try's start all the same; a request cancelled within the turn ends the try as cancelled
 * when it settles or the turn ends, whichever comes first (as if a listener had been there); a
 * handler that reads its signal makes it follow the request from that moment.
 *
 * A cancelled try is told (its signal aborts) and then waited for until its work settles or its
 * time runs out: a step reported `cancelled` — a sibling of a failed parallel group, a step of a
 * cancelled request — has stopped, not been left running behind the answer.
 */
export class TimedTry<T, R> extends TrySignal implements AfterTurn {
  private started = 0;
  private work: TryWork<T, R> | undefined = undefined;
  /** Whether the value being awaited is already `fulfilled`'s (not the handler's). */
  private mapped = false;
  private resolve: ((value: R) => void) | undefined = undefined;
  private reject: ((error: unknown) => void) | undefined = undefined;
  /** @internal The turn's list (see `afterThisTurn`). */
  turnPrevious: AfterTurn | undefined = undefined;
  /** @internal */
  turnNext: AfterTurn | undefined = undefined;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;

  constructor(
    parent: AbortSignal,
    private readonly timeoutMs: number,
  ) {
    super(parent);
  }

  /** Runs the work: its end as is when nothing is left to wait for, else a promise of it. */
  start(work: TryWork<T, R>): R | Promise<R> {
    this.started = performance.now();
    let value: T | PromiseLike<T>;
    let mapped: R | PromiseLike<R>;
    try {
      value = work.run(this);
      if (isPromiseLike(value)) return this.race(value, work, false);
      mapped = work.fulfilled(value);
    } catch (error) {
      this.end();
      return work.rejected(error);
    }
    if (isPromiseLike(mapped)) return this.race(mapped, work, true);
    this.end();
    return mapped;
  }

  /** Still running as the turn ends: out of time already, or watched from now on. */
  afterTurn(): void {
    if (!this.resolve) return;
    const left = this.started + this.timeoutMs - performance.now();
    if (left <= 0) return this.expire();
    this.timer = setTimeout(() => this.expire(), Math.ceil(left));
    this.followParent();
  }

  private race(pending: PromiseLike<unknown>, work: TryWork<T, R>, mapped: boolean): Promise<R> {
    this.work = work;
    this.mapped = mapped;
    return new Promise<R>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      afterThisTurn(this);
      this.await(pending);
    });
  }

  private await(pending: PromiseLike<unknown>): void {
    pending.then(
      (value) => this.settled(value),
      (error: unknown) => this.decide(true, error),
    );
  }

  /** The awaited value came: the handler's is mapped (perhaps awaiting that too), a mapped one ends the try. */
  private settled(value: unknown): void {
    if (!this.resolve) return;
    // A cancelled try ends cancelled, whatever its work returned once it stopped.
    if (this.parent.aborted) return this.decide(true, new StepCancelledError());
    if (this.mapped) return this.decide(false, value);
    let mapped: R | PromiseLike<R>;
    try {
      mapped = this.work!.fulfilled(value as T);
    } catch (error) {
      return this.decide(true, error);
    }
    if (!isPromiseLike(mapped)) return this.decide(false, mapped);
    this.mapped = true;
    this.await(mapped);
  }

  private expire(): void {
    const error = new StepTimeoutError(this.timeoutMs);
    this.abort(error);
    this.decide(true, error);
  }

  /** Ends the try: with an error (`failed`, mapped by `rejected`), or with its end. */
  private decide(failed: boolean, outcome: unknown): void {
    const { resolve, reject, work } = this;
    if (!resolve || !reject || !work) return;
    this.resolve = this.reject = undefined;
    leaveTurn(this);
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.end();
    if (!failed) return resolve(outcome as R);
    try {
      resolve(work.rejected(outcome));
    } catch (rethrown) {
      reject(rethrown);
    }
  }
}
