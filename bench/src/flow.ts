import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, fromStep, item } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core';
import { inMemoryClient } from './servers';
import { sideBySide, type Stats } from './measure';

export interface ParallelResult {
  parallel: Stats;
  sequential: Stats;
  /** parallel ÷ sequential: about 0.25 when four 20 ms tools overlap fully. */
  ratio: number;
}

export interface ForEachRow {
  items: number;
  perRequestUs: number;
  perItemUs: number;
}

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

/**
 * 7. A parallel group of four 20 ms tools against the same four steps run one after another, side
 * by side. Both build the same trace (a group keeps declaration order), or the run refuses.
 */
export async function parallelGroup(): Promise<ParallelResult> {
  const parallel = await inMemoryClient(groupServer(true));
  const sequential = await inMemoryClient(groupServer(false));
  const request = { name: 'group' };
  const [a, b] = await Promise.all([parallel.getPrompt(request), sequential.getPrompt(request)]);
  if (JSON.stringify(a.messages) !== JSON.stringify(b.messages))
    throw new Error('the parallel group and the sequential steps do not build the same trace');
  const result = await sideBySide(
    { parallel: () => parallel.getPrompt(request), sequential: () => sequential.getPrompt(request) },
    { warmup: 5, rounds: 10, batch: 5 },
  );
  await Promise.all([parallel.close(), sequential.close()]);
  return { parallel: result.parallel, sequential: result.sequential, ratio: result.parallel.median / result.sequential.median };
}

/**
 * 8. forEach over 10, 100 and 1,000 elements of a trivial tool, measured side by side (rotating
 * order each round, so warm-up and drift hit all three alike): time per element.
 */
export async function forEachScaling(): Promise<ForEachRow[]> {
  const sizes = [10, 100, 1000];
  const clients = await Promise.all(sizes.map((items) => inMemoryClient(loopServer(items))));
  const request = { name: 'loop' };
  for (const [index, client] of clients.entries()) {
    const first = await client.getPrompt(request);
    if ((first._meta?.['mcpflow/execution'] as { status?: string } | undefined)?.status !== 'completed')
      throw new Error(`the ${sizes[index]}-element loop did not complete`);
  }
  const result = await sideBySide(
    Object.fromEntries(clients.map((client, index) => [String(sizes[index]), () => client.getPrompt(request)])),
    {
      warmup: 50,
      rounds: 30,
      batch: 2,
    },
  );
  await Promise.all(clients.map((client) => client.close()));
  return sizes.map((items) => ({ items, perRequestUs: result[String(items)].median, perItemUs: result[String(items)].median / items }));
}
