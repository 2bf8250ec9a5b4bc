import { StepCancelledError, withRetry } from '../src/engine/steps/step-policy';

// withRetry waits backoffMs before the second try and doubles the wait before each later one.
// A fake clock makes the waits exact: each try records when it started.
describe('retry backoff, on a fake clock', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  /** Runs withRetry to its end on the fake clock; returns the outcome and the start time of every try. */
  async function retried(
    retry: { attempts: number; backoffMs?: number },
    outcome: (attempt: number) => 'throw' | 'fail' | 'ok',
    signal = new AbortController().signal,
  ): Promise<{ starts: number[]; settled: { value?: number; error?: unknown } }> {
    const starts: number[] = [];
    const run = withRetry(
      retry,
      signal,
      async () => {
        starts.push(Date.now());
        const result = outcome(starts.length);
        if (result === 'throw') throw new Error(`try ${starts.length} failed`);
        return result === 'ok' ? starts.length : -starts.length;
      },
      (value) => value < 0,
    ).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
    await jest.runAllTimersAsync();
    return { starts, settled: await run };
  }

  const waits = (starts: number[]) => starts.slice(1).map((start, index) => start - starts[index]);

  test.each([
    ['a tool that throws every time', 'throw' as const],
    ['a tool whose result is a failure every time', 'fail' as const],
  ])('%s: waits backoffMs, then twice that, then twice again, and gives up after the last try', async (_label, kind) => {
    const { starts, settled } = await retried({ attempts: 4, backoffMs: 100 }, () => kind);
    expect(waits(starts)).toEqual([100, 200, 400]);
    if (kind === 'throw') expect(settled.error).toEqual(new Error('try 4 failed'));
    else expect(settled.value).toBe(-4);
  });

  test('no try starts before its wait is over', async () => {
    const starts: number[] = [];
    const run = withRetry(
      { attempts: 3, backoffMs: 50 },
      new AbortController().signal,
      async () => {
        starts.push(Date.now());
        throw new Error('down');
      },
      () => false,
    ).catch(() => undefined);
    await jest.advanceTimersByTimeAsync(49);
    expect(starts).toEqual([0]);
    await jest.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([0, 50]);
    await jest.advanceTimersByTimeAsync(99);
    expect(starts).toEqual([0, 50]);
    await jest.advanceTimersByTimeAsync(1);
    expect(starts).toEqual([0, 50, 150]);
    await run;
  });

  test('a success ends the retries at once, with no wait after it', async () => {
    const { starts, settled } = await retried({ attempts: 5, backoffMs: 100 }, (attempt) => (attempt < 3 ? 'throw' : 'ok'));
    expect(waits(starts)).toEqual([100, 200]);
    expect(settled.value).toBe(3);
    expect(jest.now()).toBe(300);
  });

  test('without backoffMs the tries follow each other at once', async () => {
    const { starts, settled } = await retried({ attempts: 3 }, () => 'fail');
    expect(starts).toEqual([0, 0, 0]);
    expect(settled.value).toBe(-3);
  });

  test('a cancellation during a wait ends the retries without another try', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const { starts, settled } = await retried({ attempts: 5, backoffMs: 100 }, () => 'throw', controller.signal);
    expect(starts).toEqual([0, 100]);
    expect(settled.error).toBeInstanceOf(StepCancelledError);
    expect(jest.now()).toBe(150);
  });
});
