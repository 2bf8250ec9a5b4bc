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

/**
 * One contender's timings, µs per call: `median`/`min`/`max` by wall clock, `cpu` by this process's
 * CPU time (user + system, all threads), which leaves out the time spent waiting for a core on a
 * shared machine, and the garbage-collection pauses that fell inside its batches.
 */
export interface ContenderStats extends Stats {
  cpu: Stats;
  gcUsPerCall: number;
  /** Each round's batch, in round order, for ratios paired round by round. */
  rounds: { wall: number[]; cpu: number[] };
}

/**
 * The ratio of two contenders' batches within each round, summarised: a slow minute on the machine
 * slows both batches of a round, so the ratio moves less than either time.
 */
export function pairedRatio(contender: ContenderStats, baseline: ContenderStats, clock: 'wall' | 'cpu' = 'wall'): Stats {
  return stats(contender.rounds[clock].map((value, round) => value / baseline.rounds[clock][round]));
}

/** Microseconds per call of `run`, by wall clock and by CPU time, averaged over a batch of `batch` calls. */
async function timeBatch(run: () => Promise<unknown>, batch: number): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let index = 0; index < batch; index += 1) await run();
  const wall = Number(process.hrtime.bigint() - start) / 1000 / batch;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / batch };
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
  const wall: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const cpu: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  const windows: Record<string, { start: number; end: number }[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    for (let offset = 0; offset < names.length; offset += 1) {
      const name = names[(round + offset) % names.length];
      const start = performance.now();
      const sample = await timeBatch(contenders[name], options.batch);
      windows[name].push({ start, end: performance.now() });
      wall[name].push(sample.wall);
      cpu[name].push(sample.cpu);
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
      return [
        name,
        { ...stats(wall[name]), cpu: stats(cpu[name]), gcUsPerCall: (gcMs * 1000) / calls, rounds: { wall: wall[name], cpu: cpu[name] } },
      ];
    }),
  );
}
