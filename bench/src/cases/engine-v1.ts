import type { BenchCase } from '../case';
import { baselineServer, inMemoryClient, workflowServer } from '../fixtures/servers-v1';
import { pairedRatio, sideBySide } from '../measure';
import { fmt, range, ratioFigure } from '../report';

/** prompts/get of a 4-step workflow against the hand-written registerPrompt equivalent on SDK 1.x, same client, same transport. */
export const engineV1: BenchCase = {
  name: 'engine-v1',
  async run() {
    const workflow = await inMemoryClient(workflowServer(4));
    const baseline = await inMemoryClient(baselineServer(4));
    const request = { name: 'chain', arguments: { input: 'hello' } };
    // Both must answer with the same messages, or the comparison is not fair.
    const [a, b] = await Promise.all([workflow.getPrompt(request), baseline.getPrompt(request)]);
    if (JSON.stringify(a.messages) !== JSON.stringify(b.messages)) throw new Error('the workflow and the baseline do not build the same trace');
    const measured = await sideBySide(
      { workflow: () => workflow.getPrompt(request), baseline: () => baseline.getPrompt(request) },
      { warmup: 2000, rounds: 60, batch: 250 },
    );
    await Promise.all([workflow.close(), baseline.close()]);
    const ratio = measured.workflow.median / measured.baseline.median;
    const paired = pairedRatio(measured.workflow, measured.baseline);
    const cpuPaired = pairedRatio(measured.workflow, measured.baseline, 'cpu');
    return {
      result: { workflow: measured.workflow, baseline: measured.baseline, ratio, paired, cpuPaired },
      figures: [
        {
          benchmark: '1. engine overhead, SDK 1.x (4 steps, prompts/get, in memory)',
          figure: `${ratioFigure('workflow', measured.workflow, 'hand-written', measured.baseline)}; paired by round ${range(paired, '', 3)}; by CPU time ${fmt(cpuPaired.median, 3)}`,
          target: 'paired ratio ≤ 1.10',
          met: paired.median <= 1.1,
        },
      ],
    };
  },
};
