import 'reflect-metadata';
import { Bind, Step, Workflow } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core/v1';
import type { BenchCase } from '../case';
import { inMemoryClient } from '../fixtures/servers-v1';
import { sideBySide } from '../measure';
import { fmt, range } from '../report';
import { sized } from '../run-options';
import { assertSameTrace } from '../same-trace';

const LATENCY_MS = 20;

/** Four steps calling tools that each take 20 ms; `parallel` marks them one group. */
function groupServer(parallel: boolean): WorkflowServer {
  @Workflow({ name: 'group', description: 'Four slow lookups' })
  class Group {}
  for (let index = 0; index < 4; index += 1) {
    Bind(`out_${index}`)(Group.prototype, `s${index}`);
    Step({ tool: `slow_${index}`, parallel })(Group.prototype, `s${index}`);
  }
  const server = new WorkflowServer({ name: 'bench-group', version: '1.0.0' });
  for (let index = 0; index < 4; index += 1) {
    server.registerTool(`slow_${index}`, { description: `Slow ${index}` }, async () => {
      await new Promise((resolve) => setTimeout(resolve, LATENCY_MS));
      return { content: [{ type: 'text' as const, text: JSON.stringify({ index }) }] };
    });
  }
  return server.use(Group);
}

/**
 * A parallel group of four 20 ms tools against the same four steps run one after another, side
 * by side. Both build the same trace (a group keeps declaration order), or the run refuses.
 */
export const parallelGroup: BenchCase = {
  name: 'parallel',
  async run(options) {
    const parallel = await inMemoryClient(groupServer(true));
    const sequential = await inMemoryClient(groupServer(false));
    const request = { name: 'group' };
    const [a, b] = await Promise.all([parallel.getPrompt(request), sequential.getPrompt(request)]);
    assertSameTrace(a, b, 'the parallel group and the sequential steps');
    const measured = await sideBySide(
      { parallel: () => parallel.getPrompt(request), sequential: () => sequential.getPrompt(request) },
      sized(options, { warmup: 5, rounds: 10, batch: 5 }, { warmup: 1, rounds: 1, batch: 1 }),
    );
    await Promise.all([parallel.close(), sequential.close()]);
    const ratio = measured.parallel.median / measured.sequential.median;
    return {
      result: { parallel: measured.parallel, sequential: measured.sequential, ratio },
      figures: [
        {
          benchmark: '7. parallel group of 4 tools × 20 ms vs the same steps in sequence',
          figure: `parallel ${range(measured.parallel, 'µs', 0)} / sequential ${range(measured.sequential, 'µs', 0)} = ${fmt(ratio, 3)}`,
          target: 'ratio ≈ 0.25 (≤ 0.35)',
          met: ratio <= 0.35,
        },
      ],
    };
  },
};
