import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, fromStep, item } from '@mcpflow/decorators';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WorkflowServer } from '@mcpflow/core/v1';
import type { BenchCase } from '../case';
import { inMemoryClient } from '../fixtures/servers-v1';
import { pairedRatio, sideBySide, type Stats } from '../measure';
import { fmt, range, ratioFigure } from '../report';
import { sized, type RunOptions } from '../run-options';
import { assertSameTrace } from '../same-trace';

export interface ForEachRow {
  items: number;
  perRequestUs: number;
  perItemUs: number;
}

/** Issue 28: the loop within 1.5× a hand-written loop making the same validated calls, per element. */
const LOOP_TARGET = 1.5;
const DESCRIPTION = 'A trivial tool per element';
const doubleInput = { n: z.number() };
const doubleSchema = z.object(doubleInput);

type Text = { content: { type: 'text'; text: string }[] };

/** The two tools: `list` returns `items` numbers as JSON, `double` doubles one. */
function loopTools(items: number): { list: () => Promise<Text>; double: (args: { n: number }) => Promise<Text> } {
  const list = JSON.stringify(Array.from({ length: items }, (_, index) => index));
  return {
    list: async () => ({ content: [{ type: 'text', text: list }] }),
    double: async ({ n }) => ({ content: [{ type: 'text', text: String(n * 2) }] }),
  };
}

function registerLoopTools(server: McpServer, items: number): void {
  const tools = loopTools(items);
  server.registerTool('list', {}, tools.list);
  server.registerTool('double', { inputSchema: doubleInput }, tools.double);
}

/** A list of `items` numbers, then a trivial tool once per element. */
function loopServer(items: number): WorkflowServer {
  @Workflow({ name: 'loop', description: DESCRIPTION })
  class Loop {
    @Step({ tool: 'list' })
    @Bind('items')
    items!: number[];

    @Step({ tool: 'double', forEach: fromStep('items'), maxItems: 1000, args: { n: item() } })
    @Bind('doubled')
    doubled!: number[];
  }
  const server = new WorkflowServer({ name: 'bench-loop', version: '1.0.0' });
  registerLoopTools(server, items);
  return server.use(Loop);
}

/**
 * The hand-written equivalent: a prompt that calls `list`, then `double` once per element, each
 * input validated by the tool's zod schema (as tools/call does), and builds the same messages.
 */
function loopBaselineServer(items: number): McpServer {
  const server = new McpServer({ name: 'baseline-loop', version: '1.0.0' });
  registerLoopTools(server, items);
  const tools = loopTools(items);
  const text = (role: 'user' | 'assistant', value: string) => ({ role, content: { type: 'text' as const, text: value } });
  server.registerPrompt('loop', { description: DESCRIPTION }, async () => {
    const messages = [
      text('user', DESCRIPTION),
      text('assistant', 'Plan:\n1. items: call tool list\n2. doubled: call tool double'),
      text('assistant', 'Calling tool list with arguments: {}'),
    ];
    const listed = (await tools.list()).content[0].text;
    messages.push(text('user', `Result of list:\n${listed}`));
    for (const n of JSON.parse(listed) as number[]) {
      const args = doubleSchema.parse({ n });
      messages.push(text('assistant', `Calling tool double with arguments: ${JSON.stringify(args)}`));
      messages.push(text('user', `Result of double:\n${(await tools.double(args)).content[0].text}`));
    }
    return { description: DESCRIPTION, messages };
  });
  return server;
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

/** forEach over 1,000 elements against the hand-written loop, side by side, paired by round. Refuses unless both build the same trace. */
async function againstHandWritten(options: RunOptions): Promise<{ workflow: Stats; baseline: Stats; paired: Stats }> {
  const items = 1000;
  const workflow = await inMemoryClient(loopServer(items));
  const baseline = await inMemoryClient(loopBaselineServer(items));
  const request = { name: 'loop' };
  assertSameTrace(
    await workflow.getPrompt(request),
    await baseline.getPrompt(request),
    `the ${items}-element loop and the hand-written loop`,
  );
  const measured = await sideBySide(
    { workflow: () => workflow.getPrompt(request), baseline: () => baseline.getPrompt(request) },
    sized(options, { warmup: 10, rounds: 30, batch: 2 }, { warmup: 1, rounds: 2, batch: 1 }),
  );
  await Promise.all([workflow.close(), baseline.close()]);
  return { workflow: measured.workflow, baseline: measured.baseline, paired: pairedRatio(measured.workflow, measured.baseline) };
}

export const forEachLoop: BenchCase = {
  name: 'forEach',
  async run(options) {
    const loops = await forEachScaling(options);
    const handWritten = await againstHandWritten(options);
    // The cost of one more element, from 10 to 100 and from 100 to 1,000: equal when the loop is linear.
    const [ten, hundred, thousand] = loops;
    const early = (hundred.perRequestUs - ten.perRequestUs) / 90;
    const late = (thousand.perRequestUs - hundred.perRequestUs) / 900;
    const growth = late / early;
    return {
      result: { loops, handWritten },
      figures: [
        {
          benchmark: '8. forEach, trivial tool (µs per element at 10/100/1,000 elements)',
          figure: `${loops.map((row) => fmt(row.perItemUs)).join(' / ')} (per request ${loops.map((row) => fmt(row.perRequestUs, 0)).join(' / ')} µs)`,
          target: 'reported (absolute figures move with the machine: the gate is the paired row)',
        },
        {
          benchmark:
            '8. forEach over 1,000 elements vs a hand-written loop making the same validated calls (per element, SDK 1.x, in memory)',
          figure: `${ratioFigure('workflow', handWritten.workflow, 'hand-written', handWritten.baseline)}; paired by round ${range(handWritten.paired, '', 3)}`,
          target: `paired ratio ≤ ${LOOP_TARGET}`,
          met: handWritten.paired.median <= LOOP_TARGET,
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
