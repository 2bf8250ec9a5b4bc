import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, fromStep, item, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { MATRIX, type Line, type TestClient } from '../helpers/lines';

/**
 * Step timing on request (`_meta["mcpflow/timing"]: true`): each step's `durationMs` and a
 * `forEach` step's `iterationDurationsMs` in `_meta["mcpflow/execution"]`, on both lines and both
 * faces; without the opt-in, no duration at all (results stay byte-stable).
 */

@Workflow({
  name: 'board',
  description: 'Read a project board',
  arguments: { project: z.string() },
  expose: { prompt: true, tool: true },
})
class Board {
  @Step({ tool: 'cards', args: { project: promptArg('project') } })
  @Bind('cards')
  cards!: { id: number }[];

  @Step({ tool: 'owner', parallel: true, args: { project: promptArg('project') } })
  owner!: string;

  @Step({ tool: 'labels', parallel: true, args: { project: promptArg('project') } })
  labels!: string;

  @Step({ tool: 'card', forEach: fromStep('cards'), args: { id: item('id') } })
  details!: string[];
}

function server(line: Line) {
  const wf = new line.WorkflowServer({ name: 'board', version: '1.0.0' });
  const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
  wf.registerTool('cards', { inputSchema: { project: z.string() } }, async () => text(JSON.stringify([{ id: 1 }, { id: 2 }, { id: 3 }])));
  wf.registerTool('owner', { inputSchema: { project: z.string() } }, async () => text('ada'));
  wf.registerTool('labels', { inputSchema: { project: z.string() } }, async () => text('bug'));
  wf.registerTool('card', { inputSchema: { id: z.number() } }, async ({ id }) => text(`card ${id}`));
  return wf.use(Board);
}

const TIMING = { 'mcpflow/timing': true };

function expectTimed(meta: ExecutionMeta): void {
  expect(meta.status).toBe('completed');
  expect(meta.steps.map((step) => step.name)).toEqual(['cards', 'owner', 'labels', 'details']);
  for (const step of meta.steps) {
    expect(typeof step.durationMs).toBe('number');
    expect(step.durationMs).toBeGreaterThanOrEqual(0);
  }
  const loop = meta.steps[3];
  expect(loop.iterations?.count).toBe(3);
  expect(loop.iterationDurationsMs).toHaveLength(3);
  for (const ms of loop.iterationDurationsMs ?? []) expect(ms).toBeGreaterThanOrEqual(0);
}

function expectUntimed(meta: ExecutionMeta): void {
  expect(meta.status).toBe('completed');
  expect(JSON.stringify(meta)).not.toMatch(/durationMs|iterationDurationsMs/);
}

describe.each(MATRIX)('step timing: $label', ({ line, transport }) => {
  let client: TestClient;
  afterEach(async () => client?.close());

  test('prompts/get with _meta["mcpflow/timing"]: every step, parallel step and iteration has its durationMs', async () => {
    client = await line.connect(() => server(line), { transport });
    const result = await client.getPrompt({ name: 'board', arguments: { project: 'mcp' }, _meta: TIMING });
    expectTimed(result._meta?.['mcpflow/execution'] as ExecutionMeta);
  });

  test('tools/call with _meta["mcpflow/timing"]: the same durations', async () => {
    client = await line.connect(() => server(line), { transport });
    const result = await client.callTool({ name: 'board', arguments: { project: 'mcp' }, _meta: TIMING });
    expectTimed(result._meta?.['mcpflow/execution'] as ExecutionMeta);
  });

  test('without the opt-in, neither face carries a duration', async () => {
    client = await line.connect(() => server(line), { transport });
    expectUntimed((await client.getPrompt({ name: 'board', arguments: { project: 'mcp' } }))._meta?.['mcpflow/execution'] as ExecutionMeta);
    expectUntimed((await client.callTool({ name: 'board', arguments: { project: 'mcp' } }))._meta?.['mcpflow/execution'] as ExecutionMeta);
  });
});
