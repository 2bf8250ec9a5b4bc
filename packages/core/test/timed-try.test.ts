import { withSignalFrom } from '../src/adapter-kit';
import { TimedTry, type TryWork } from '../src/engine/steps/timed-try';
import { StepCancelledError, StepTimeoutError } from '../src/engine/steps/step-errors';

/** A try's work that records the signal its handler saw, and maps the end to a string. */
function work<T>(run: (source: TimedTry<T, string>) => T | PromiseLike<T>): TryWork<T, string> & { signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    signals,
    run: (source) => run(source as TimedTry<T, string>),
    fulfilled: (value) => `value ${String(value)}`,
    rejected: (error) => `error ${error instanceof Error ? error.name : String(error)}`,
  };
}

// A step's try under the default 30 s timeout: a tool that answers within the event loop's turn
// sets no timer and makes no signal; one that runs longer is timed from its start and cancelled
// with its request, and its signal (made when read) aborts with it.
describe('a timed try', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('leaves no timer behind a tool that answers at once or within the turn', async () => {
    const request = new AbortController();
    expect(new TimedTry<number, string>(request.signal, 30_000).start(work(() => 1))).toBe('value 1');
    const quick = new TimedTry<number, string>(request.signal, 30_000).start(work(() => Promise.resolve(2)));
    await expect(quick).resolves.toBe('value 2');
    await jest.advanceTimersByTimeAsync(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('times out a tool that never answers, and aborts the signal it read', async () => {
    const request = new AbortController();
    const seen: AbortSignal[] = [];
    const ended = new TimedTry<never, string>(request.signal, 1_000).start(
      work((source) => {
        seen.push(source.signal);
        return new Promise<never>(() => undefined);
      }),
    );
    await jest.advanceTimersByTimeAsync(999);
    expect(seen[0].aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await expect(ended).resolves.toBe('error StepTimeoutError');
    expect(seen[0].reason).toBeInstanceOf(StepTimeoutError);
  });

  it('ends as cancelled when its request is, whether or not the turn ended', async () => {
    for (const cancelAfterTurn of [false, true]) {
      const request = new AbortController();
      let finish: (value: number) => void = () => undefined;
      const ended = new TimedTry<number, string>(request.signal, 30_000).start(
        work(() => new Promise<number>((resolve) => (finish = resolve))),
      );
      if (cancelAfterTurn) await jest.advanceTimersByTimeAsync(10);
      request.abort();
      finish(3);
      await expect(ended).resolves.toBe(`error ${new StepCancelledError().name}`);
    }
  });

  it('gives a signal made late the state it would have had: aborted once the try timed out', async () => {
    const request = new AbortController();
    let late: TimedTry<never, string> | undefined;
    const ended = new TimedTry<never, string>(request.signal, 10).start(
      work((source) => {
        late = source;
        return new Promise<never>(() => undefined);
      }),
    );
    await jest.advanceTimersByTimeAsync(10);
    await expect(ended).resolves.toBe('error StepTimeoutError');
    expect(late!.signal.aborted).toBe(true);
  });
});

// What a handler sees in its request context: `signal` read from the try, everything else as the
// request's, through spreads and key listings too.
describe('withSignalFrom', () => {
  const requestSignal = new AbortController().signal;
  const extra = { signal: requestSignal, requestId: 7, sessionId: 's' };

  it('reads signal from the source only when read, and spreads and lists like the context', () => {
    let made = 0;
    const trySignal = new AbortController().signal;
    const source = {
      get signal() {
        made += 1;
        return trySignal;
      },
    };
    const context = withSignalFrom(extra, source);
    expect(made).toBe(0);
    expect(Object.keys(context)).toEqual(['signal', 'requestId', 'sessionId']);
    expect({ ...context }.signal).toBe(trySignal);
    expect(context.signal).toBe(trySignal);
    expect(context.requestId).toBe(7);
    expect(made).toBeGreaterThan(0);
    expect(extra.signal).toBe(requestSignal);
  });

  it("keeps a handler's own change of signal", () => {
    const own = new AbortController().signal;
    const context: { signal: AbortSignal } = withSignalFrom(extra, { signal: new AbortController().signal });
    context.signal = own;
    expect(context.signal).toBe(own);
  });
});
