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

/** Microseconds per call of `run`, averaged over a batch of `batch` calls. */
export async function timeBatch(run: () => Promise<unknown>, batch: number): Promise<number> {
  const start = process.hrtime.bigint();
  for (let index = 0; index < batch; index += 1) await run();
  return Number(process.hrtime.bigint() - start) / 1000 / batch;
}

/**
 * Measures several contenders side by side: after a warm-up, each round runs one batch of each,
 * in rotating order, so drift on a noisy machine hits all of them alike. Returns µs per call.
 */
export async function sideBySide(
  contenders: Record<string, () => Promise<unknown>>,
  options: { warmup: number; rounds: number; batch: number },
): Promise<Record<string, Stats>> {
  const names = Object.keys(contenders);
  for (const name of names) for (let index = 0; index < options.warmup; index += 1) await contenders[name]();
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round += 1) {
    for (let offset = 0; offset < names.length; offset += 1) {
      const name = names[(round + offset) % names.length];
      samples[name].push(await timeBatch(contenders[name], options.batch));
    }
  }
  return Object.fromEntries(names.map((name) => [name, stats(samples[name])]));
}
