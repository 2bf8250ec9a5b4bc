import { PerformanceObserver, performance } from 'node:perf_hooks';

/** Median, min and max of repeated samples, in the unit the samples were taken in. */
export interface Stats {
  median: number;
  min: number;
  max: number;
  samples: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], samples: sorted.length };
}

/** One contender's timings: µs per call, and the garbage-collection pauses that fell inside its batches, in µs per call. */
export interface ContenderStats extends Stats {
  gcUsPerCall: number;
}

/** Microseconds per call of `run`, averaged over a batch of `batch` calls. */
export async function timeBatch(run: () => Promise<unknown>, batch: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let index = 0; index < batch; index += 1) await run();
  return Number(process.hrtime.bigint() - start) / 1000 / batch;
}

/**
 * Measures several contenders side by side: after a warm-up, each round runs one batch of each,
 * in rotating order, so drift on a noisy machine hits all of them alike. Returns µs per call.
 *
 * It also records where the collector paused: a GC pause belongs to whichever batch it interrupted,
 * though the garbage may be another contender's (V8 collects when the young generation fills, not
 * when the allocator finishes). `gcUsPerCall` makes that visible instead of hiding it in the median.
 */
export async function sideBySide(
  contenders: Record<string, () => Promise<unknown>>,
  options: { warmup: number; rounds: number; batch: number },
): Promise<Record<string, ContenderStats>> {
  const names = Object.keys(contenders);
  for (const name of names) for (let index = 0; index < options.warmup; index += 1) await contenders[name]();
  const pauses: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, duration: entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const windows: Record<string, { start: number; end: number }[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    for (let offset = 0; offset < names.length; offset += 1) {
      const name = names[(round + offset) % names.length];
      const start = performance.now();
      samples[name].push(await timeBatch(contenders[name], options.batch));
      windows[name].push({ start, end: performance.now() });
    }
  }
  // GC entries are delivered after the fact, on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  const calls = options.rounds * options.batch;
  return Object.fromEntries(
    names.map((name) => {
      const gcMs = pauses
        .filter((pause) => windows[name].some((window) => pause.start >= window.start && pause.start < window.end))
        .reduce((sum, pause) => sum + pause.duration, 0);
      return [name, { ...stats(samples[name]), gcUsPerCall: (gcMs * 1000) / calls }];
    }),
  );
}
