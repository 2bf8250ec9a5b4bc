import type { BenchCase } from './case';
import { pairedRatio, sideBySide } from './measure';
import { sized } from './run-options';
import { assertSameTrace } from './same-trace';
import { fmt, range, ratioFigure } from './report';

/** What the engine benchmark needs of a client, on either SDK line. */
export interface PromptClient {
  getPrompt(request: { name: string; arguments?: Record<string, string> }): Promise<{ messages: unknown[] }>;
  close(): Promise<void>;
}

/**
 * The engine-overhead case of one SDK line: prompts/get of a 4-step workflow against the
 * hand-written prompt that makes the same calls, through the same client and transport. Refuses to
 * run unless both answer with the same messages.
 */
export function engineOverheadCase(
  name: string,
  line: string,
  connect: () => Promise<{ workflow: PromptClient; baseline: PromptClient }>,
): BenchCase {
  return {
    name,
    async run(options) {
      const { workflow, baseline } = await connect();
      const request = { name: 'chain', arguments: { input: 'hello' } };
      const [a, b] = await Promise.all([workflow.getPrompt(request), baseline.getPrompt(request)]);
      assertSameTrace(a, b, `${line}: the workflow and the baseline`);
      const measured = await sideBySide(
        { workflow: () => workflow.getPrompt(request), baseline: () => baseline.getPrompt(request) },
        sized(options, { warmup: 2000, rounds: 60, batch: 250 }),
      );
      await Promise.all([workflow.close(), baseline.close()]);
      const paired = pairedRatio(measured.workflow, measured.baseline);
      const cpuPaired = pairedRatio(measured.workflow, measured.baseline, 'cpu');
      return {
        result: {
          workflow: measured.workflow,
          baseline: measured.baseline,
          ratio: measured.workflow.median / measured.baseline.median,
          paired,
          cpuPaired,
        },
        figures: [
          {
            benchmark: `1. engine overhead, ${line} (4 steps, prompts/get, in memory)`,
            figure: `${ratioFigure('workflow', measured.workflow, 'hand-written', measured.baseline)}; paired by round ${range(paired, '', 3)}; by CPU time ${fmt(cpuPaired.median, 3)}`,
            target: 'paired ratio ≤ 1.20 (aim 1.10)',
            met: paired.median <= 1.2,
          },
        ],
      };
    },
  };
}
