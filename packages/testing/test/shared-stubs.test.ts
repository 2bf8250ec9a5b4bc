/**
 * One stub map for the workflows of a test file (DESIGN §2.12), as users write it: a stub for a
 * tool another workflow uses, or that a definition declares, is accepted; runWorkflow checks the
 * class's own wiring first, then the keys; a stub naming nothing anywhere is still refused, and no
 * message tells the user to copy a misspelled name.
 */
import { z } from 'zod';
import { ErrorCodes, UnknownBindingError, UnregisteredToolError, type WorkflowClass } from '@mcpflow/core';
import { Bind, Step, Workflow, defineTool, promptArg } from '@mcpflow/decorators';
import { UnknownRunKeyError, runWorkflow, type RunWorkflowOptions } from '@mcpflow/testing';
import { LINES } from './lines';
import { AddProjectTask, GetHint, Order, brokenWorkflow, realPriceCalls } from './workflows';

/** Declared by the project: its name is right. */
defineTool(
  'get_forecast',
  { description: 'The forecast of a city', inputSchema: { city: z.string() }, outputSchema: { sky: z.string() } },
  async () => ({ content: [{ type: 'text', text: '{"sky":"clear"}' }], structuredContent: { sky: 'clear' } }),
);

/** Names the project's tool by string, misspelled. */
@Workflow({ name: 'weather', description: 'The weather of a city', arguments: { city: z.string() } })
class Weather {
  @Step({ tool: 'get_forcast', args: { city: promptArg('city') } })
  @Bind('forecast')
  forecast!: { sky: string };
}

/** Names by string a tool nothing else names: a stub spelled otherwise could be the typo, or it could. */
@Workflow({ name: 'notify', description: 'Tell the team', arguments: { text: z.string() } })
class Notify {
  @Step({ tool: 'send_mesage', args: { text: promptArg('text') } })
  sent!: unknown;
}

/** One map for every workflow of the file. */
const tools = {
  get_my_progress: () => ({ game_id: 'zork1', room: 'West of House' }),
  write_hint: () => 'Go north.',
  list_pages: () => ({ names: ['MCP Tester'] }),
  add_task: ({ project, task }: { project: string; task: string }) => ({ ok: true, page: project, task }),
  get_price: () => ({ price: 2 }),
  place_order: ({ quantity }: { quantity: number }) => ({ id: `order of ${quantity}` }),
};
const resources = { 'if://walkthrough/{game_id}': ({ game_id }: Record<string, unknown>) => `Walkthrough of ${String(game_id)}` };

beforeEach(() => (realPriceCalls.length = 0));

describe.each(LINES)('$label', ({ sdk, protocol }) => {
  const run = (target: WorkflowClass, options: RunWorkflowOptions) => runWorkflow(target, { sdk, protocol, ...options });

  test('one stub map serves every workflow of the file: stubs for the others’ tools are accepted', async () => {
    const hint = await run(GetHint, { arguments: { player: 'ada' }, tools, resources });
    expect(hint.status).toBe('completed');
    expect(hint.outputs.hint).toBe('Go north.');
    const added = await run(AddProjectTask, {
      arguments: { project: 'mcp', task: 'Fix it' },
      tools,
      answers: { 'added/project': 'MCP Tester' },
    });
    expect(added.calls.map((call) => call.tool)).toEqual(['list_pages', 'add_task']);
    const order = await run(Order, { arguments: { sku: 'A-1' }, tools, resources, answers: { 'placed/quantity': 2 } });
    expect(order.outputs).toEqual({ price: { price: 2 }, placed: { id: 'order of 2' } });
    expect(realPriceCalls).toEqual([]);
  });

  test('a broken class run with the shared map is reported by its own wiring error (91001), not as a stub problem', async () => {
    const rejected = run(brokenWorkflow(), { arguments: {}, tools: { ...tools, analyze: () => 'a', review: () => 'r' } });
    await expect(rejected).rejects.toBeInstanceOf(UnknownBindingError);
    await expect(rejected).rejects.toMatchObject({
      code: ErrorCodes.UnknownBinding,
      message: expect.stringContaining("reads binding 'analysis'"),
    });
  });

  test('a stub naming no tool anywhere is refused, with did-you-mean against the tools the process knows', async () => {
    const rejected = run(Order, { arguments: { sku: 'A-1' }, tools: { ...tools, add_tsk: () => '' }, answers: { 'placed/quantity': 1 } });
    await expect(rejected).rejects.toBeInstanceOf(UnknownRunKeyError);
    await expect(rejected).rejects.toThrow(
      "runWorkflow: tools['add_tsk'] names no tool of workflow 'order', nor of another workflow or a defineTool definition. " +
        "Did you mean 'add_task'? Its tools: 'get_price', 'place_order'. Fix: rename it to 'add_task' (nothing ran).",
    );
    expect(realPriceCalls).toEqual([]);
  });

  test("a step's misspelled tool name is named as the typo, never copied: the project defines the right one", async () => {
    const rejected = run(Weather, { arguments: { city: 'Oslo' }, tools: { ...tools, get_forecast: () => ({ sky: 'rain' }) } });
    await expect(rejected).rejects.toBeInstanceOf(UnregisteredToolError);
    await expect(rejected).rejects.toThrow(
      "Did you mean 'get_forecast'? Fix: the step's tool name 'get_forcast' is the likely typo: write tool: 'get_forecast' in step 'forecast'",
    );
    await expect(rejected).rejects.not.toThrow("rename it to 'get_forcast'");
  });

  test('when nothing but the workflow names its tool, a stub spelled otherwise gets both ways, not a rename to the workflow’s spelling', async () => {
    const rejected = run(Notify, { arguments: { text: 'hi' }, tools: { send_message: () => 'sent' } });
    await expect(rejected).rejects.toBeInstanceOf(UnknownRunKeyError);
    await expect(rejected).rejects.toThrow(
      "Did you mean 'send_mesage'? Its tools: 'send_mesage'. Fix: nothing but the workflow names 'send_mesage', so either name may be the typo: " +
        "rename the key to 'send_mesage', or, if 'send_message' is the real name, write tool: 'send_message' in the workflow's step in place of 'send_mesage' (nothing ran).",
    );
  });
});
