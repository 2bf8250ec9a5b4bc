import type { BenchCase, Figure } from '../case';
import { inMemoryClient, workflowServer } from '../fixtures/servers-v1';
import { sideBySide } from '../measure';
import { fmt } from '../report';
import { sized, type RunOptions } from '../run-options';

export interface ScalingRow {
  steps: number;
  outputBytes: number;
  perRequestUs: number;
  perStepUs: number;
}

/** Time per step at 1, 4, 16 and 64 steps, with trivial and with 10 kB step outputs. */
async function measureScaling(options: RunOptions): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = [];
  for (const outputBytes of [0, 10_000]) {
    for (const steps of [1, 4, 16, 64]) {
      const client = await inMemoryClient(workflowServer(steps, outputBytes));
      const request = { name: 'chain', arguments: { input: 'hello' } };
      const { run } = await sideBySide(
        { run: () => client.getPrompt(request) },
        sized(options, { warmup: Math.max(50, 2000 / steps), rounds: 15, batch: Math.max(10, Math.round(400 / steps)) }),
      );
      rows.push({ steps, outputBytes, perRequestUs: run.median, perStepUs: run.median / steps });
      await client.close();
    }
  }
  return rows;
}

/** Per-step cost must not grow with the number of steps. */
export const scaling: BenchCase = {
  name: 'scaling',
  async run(options) {
    const rows = await measureScaling(options);
    const figures: Figure[] = [0, 10_000].map((outputBytes) => {
      const series = rows.filter((row) => row.outputBytes === outputBytes);
      const growth = series[series.length - 1].perStepUs / series[1].perStepUs;
      return {
        benchmark: `2. scaling, ${outputBytes ? '10 kB' : 'trivial'} outputs (µs per step at 1/4/16/64 steps)`,
        figure: `${series.map((row) => fmt(row.perStepUs)).join(' / ')}; per-step cost at 64 ÷ at 4 = ${fmt(growth, 2)}`,
        target: 'linear: per-step cost at 64 steps ≤ 1.5 × at 4',
        met: growth <= 1.5,
      };
    });
    return { result: rows, figures };
  },
};
