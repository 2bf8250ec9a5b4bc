import { z } from 'zod';
import { runOf, type RunMeta } from '@mcpflow/core';
import { runOf as runOfV1 } from '@mcpflow/core/v1';
import { runOf as runOfV2 } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, defineTool, promptArg } from '@mcpflow/decorators';
import { runWorkflow } from '@mcpflow/testing';
import { LINES } from './helpers/lines';

/**
 * The run id, typed (DESIGN §2.13): a `defineTool` handler reads its run with `runOf(ctx)` — this
 * file compiles under the test's type check (`ctx.mcpReq._meta["mcpflow/run"].id` did not: TS2339)
 * — and gets the same id in every step of one run, with the step that called it, on both SDK lines.
 */
const seen: (RunMeta | undefined)[] = [];

const charge = defineTool(
  'charge',
  { description: 'Charges once per run', inputSchema: { amount: z.string() } },
  async ({ amount }, ctx) => {
    const run = runOf(ctx);
    const key: string | undefined = run && `${run.id}/${run.step}`; // typed: strings, the idempotency key
    seen.push(run);
    return { content: [{ type: 'text', text: `charged ${amount} (${key})` }] };
  },
);

@Workflow({ name: 'checkout', description: 'Charges twice in one run', arguments: { amount: z.string() } })
class Checkout {
  @Step({ tool: charge, args: { amount: promptArg('amount') } })
  @Bind('first')
  first!: unknown;

  @Step({ tool: charge, args: { amount: promptArg('amount') } })
  @Bind('second')
  second!: unknown;
}

test.each([1, 2] as const)(
  'SDK %i: every step of one run reads the same run id and its own step through runOf(ctx); another run, another id',
  async (sdk) => {
    seen.length = 0;
    await runWorkflow(Checkout, { arguments: { amount: '5' }, sdk });
    await runWorkflow(Checkout, { arguments: { amount: '5' }, sdk });
    expect(seen).toHaveLength(4);
    expect(seen.every((run) => typeof run?.id === 'string' && run.id.length > 0)).toBe(true);
    expect(seen.map((run) => run?.step)).toEqual(['first', 'second', 'first', 'second']);
    expect(seen[0]!.id).toBe(seen[1]!.id);
    expect(seen[2]!.id).toBe(seen[3]!.id);
    expect(seen[0]!.id).not.toBe(seen[2]!.id);
  },
);

test('runOf is the same helper from the root, /v1 and /v2; a context without a run of this process gives undefined', () => {
  expect(runOfV1).toBe(runOf);
  expect(runOfV2).toBe(runOf);
  // Only a run of this process puts a run into a context: a look-alike object is no run.
  expect(runOf({ mcpReq: { _meta: { 'mcpflow/run': { id: 'r1' } } } })).toBeUndefined(); // 2.x ctx
  expect(runOf({ _meta: { 'mcpflow/run': { id: 'r1' } } })).toBeUndefined(); // 1.x extra
  // Even one shaped as a run's.
  expect(runOf({ mcpReq: { _meta: { 'mcpflow/run': { id: 'r1', step: 'build' } } } })).toBeUndefined();
  expect(runOf({ mcpReq: { _meta: {} } })).toBeUndefined();
  expect(runOf(undefined)).toBeUndefined();
});

describe.each(LINES)('$name: a client calling a tool directly', (line) => {
  test('cannot forge _meta["mcpflow/run"]: the handler reads no run, so no idempotency key is shared with a real run', async () => {
    seen.length = 0;
    const client = await line.connect(() => {
      const server = new line.WorkflowServer({ name: 'shop', version: '1.0.0' });
      server.use(Checkout);
      return server;
    });
    try {
      const forged = await client.callTool({
        name: 'charge',
        arguments: { amount: '5' },
        _meta: { 'mcpflow/run': { id: 'someone-elses-run' } },
      });
      expect((forged.content as { text: string }[])[0].text).toBe('charged 5 (undefined)');
      expect(seen).toEqual([undefined]);
      // The same tool as a workflow's step does read its run.
      await client.getPrompt({ name: 'checkout', arguments: { amount: '5' } });
      expect(seen).toHaveLength(3);
      expect(seen[1]?.id).toEqual(expect.any(String));
      expect(seen[1]?.id).not.toBe('someone-elses-run');
    } finally {
      await client.close();
    }
  });
});
