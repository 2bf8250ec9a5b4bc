import { inMemoryClient, workflowServer } from './servers';
import { sideBySide } from './measure';

export interface ScalingRow {
  steps: number;
  outputBytes: number;
  perRequestUs: number;
  perStepUs: number;
}

/** 2. Time per step at 1, 4, 16 and 64 steps, with trivial and with 10 kB step outputs. */
export async function scaling(): Promise<ScalingRow[]> {
  const rows: ScalingRow[] = [];
  for (const outputBytes of [0, 10_000]) {
    for (const steps of [1, 4, 16, 64]) {
      const client = await inMemoryClient(workflowServer(steps, outputBytes));
      const request = { name: 'chain', arguments: { input: 'hello' } };
      const { run } = await sideBySide(
        { run: () => client.getPrompt(request) },
        { warmup: Math.max(50, 2000 / steps), rounds: 15, batch: Math.max(10, Math.round(400 / steps)) },
      );
      rows.push({ steps, outputBytes, perRequestUs: run.median, perStepUs: run.median / steps });
      await client.close();
    }
  }
  return rows;
}
