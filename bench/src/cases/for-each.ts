import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, fromStep, item } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core/v1';
import type { BenchCase } from '../case';
import { inMemoryClient } from '../fixtures/servers-v1';
import { sideBySide } from '../measure';
import { fmt } from '../report';
import { sized, type RunOptions } from '../run-options';

export interface ForEachRow {
  items: number;
  perRequestUs: number;
  perItemUs: number;
}

/** A list of `items` numbers, then a trivial tool once per element. */
function loopServer(items: number): WorkflowServer {
  @Workflow({ name: 'loop', description: 'A trivial tool per element' })
  class Loop {
    @Step({ tool: 'list' })
    @Bind('items')
    items!: number[];

    @Step({ tool: 'double', forEach: fromStep('items'), maxItems: 1000, args: { n: item() } })
    @Bind('doubled')
    doubled!: number[];
  }
  const server = new WorkflowServer({ name: 'bench-loop', version: '1.0.0' });
  const list = JSON.stringify(Array.from({ length: items }, (_, index) => index));
  server.registerTool('list', {}, async () => ({ content: [{ type: 'text' as const, text: list }] }));
  server.registerTool('double', { inputSchema: { n: z.number() } }, async ({ n }) => ({
    content: [{ type: 'text' as const, text: String(n * 2) }],
  }));
  return server.use(Loop);
}

/** forEach over 10, 100 and 1,000 elements of a trivial tool: time per element. */
async function forEachScaling(options: RunOptions): Promise<ForEachRow[]> {
  const rows: ForEachRow[] = [];
  for (const items of [10, 100, 1000]) {
    const client = await inMemoryClient(loopServer(items));
    const request = { name: 'loop' };
    const first = await client.getPrompt(request);
    if ((first._meta?.['mcpflow/execution'] as { status?: string } | undefined)?.status !== 'completed')
      throw new Error(`the ${items}-element loop did not complete`);
    const { run } = await sideBySide(
      { run: () => client.getPrompt(request) },
      sized(
        options,
        { warmup: Math.max(3, 2000 / items), rounds: 10, batch: Math.max(1, Math.round(200 / items)) },
        { warmup: 1, rounds: 1, batch: 1 },
      ),
    );
    rows.push({ items, perRequestUs: run.median, perItemUs: run.median / items });
    await client.close();
  }
  return rows;
}

export const forEachLoop: BenchCase = {
  name: 'forEach',
  async run(options) {
    const loops = await forEachScaling(options);
    // The cost of one more element, from 10 to 100 and from 100 to 1,000: equal when the loop is linear.
    const [ten, hundred, thousand] = loops;
    const early = (hundred.perRequestUs - ten.perRequestUs) / 90;
    const late = (thousand.perRequestUs - hundred.perRequestUs) / 900;
    const growth = late / early;
    return {
      result: loops,
      figures: [
        {
          benchmark: '8. forEach, trivial tool (µs per element at 10/100/1,000 elements)',
          figure: `${loops.map((row) => fmt(row.perItemUs)).join(' / ')} (per request ${loops.map((row) => fmt(row.perRequestUs, 0)).join(' / ')} µs)`,
          target: '≤ 3 µs per element at 1,000',
          met: thousand.perItemUs <= 3,
        },
        {
          benchmark: '8. forEach, cost of one more element (100→1,000 ÷ 10→100)',
          figure: `marginal µs per element ${fmt(late)} / ${fmt(early)} = ${fmt(growth, 2)}`,
          target: 'linear: ≤ 1.5',
          met: growth <= 1.5,
        },
      ],
    };
  },
};
