import type { BenchCase } from '../case';
import { inMemoryClient, workflowServer } from '../fixtures/servers-v1';
import { fmt } from '../report';
import { sized, type RunOptions } from '../run-options';

/** Heap retained per completed execution, measured after GC around 10,000 runs (needs --expose-gc). */
async function retainedMemory(options: RunOptions): Promise<{ runs: number; bytesPerRun: number }> {
  const { warmup, runs } = sized(options, { warmup: 1000, runs: 10_000 }, { warmup: 10, runs: 20 });
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const client = await inMemoryClient(workflowServer(4));
  const request = { name: 'chain', arguments: { input: 'hello' } };
  for (let index = 0; index < warmup; index += 1) await client.getPrompt(request);
  const settle = () => {
    for (let index = 0; index < 3; index += 1) gc();
    return process.memoryUsage().heapUsed;
  };
  const before = settle();
  for (let index = 0; index < runs; index += 1) await client.getPrompt({ name: 'chain', arguments: { input: `hello ${index}` } });
  const after = settle();
  await client.close();
  return { runs, bytesPerRun: Math.max(0, after - before) / runs };
}

export const memory: BenchCase = {
  name: 'memory',
  async run(options) {
    const result = await retainedMemory(options);
    return {
      result,
      figures: [
        {
          benchmark: '5. heap retained per execution (10,000 runs, after GC)',
          figure: `${fmt(result.bytesPerRun)} bytes`,
          target: '< 1024 bytes',
          met: result.bytesPerRun < 1024,
        },
      ],
    };
  },
};
