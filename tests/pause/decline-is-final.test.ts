import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, promptArg, workflowTool } from '@mcpflow/decorators';
import { MATRIX, SESSIONFUL, type TestClient } from '../helpers/lines';
import { messageText } from '../helpers/connect';

/**
 * DESIGN §2.8 "A user's no is final": a declined or cancelled question ends the run `cancelled`,
 * reason `declined by the user: "<question>"`, and the trace's last message tells the LLM not to
 * do the remaining steps on the user's behalf — both lines, prompt and tool faces, in place (2025
 * sessions) and on 2026-07-28 rounds (the client's retry carries the decline). No step after the
 * question runs.
 */

@Workflow({
  name: 'place_order',
  description: 'Order an item',
  arguments: { item: z.string() },
  expose: { prompt: true, tool: true },
})
class PlaceOrder {
  @Step({ tool: 'check_stock', args: { item: promptArg('item') } })
  @Bind('stock')
  stock!: unknown;

  @Step({ tool: 'order', args: { item: promptArg('item'), quantity: askUser('How many {item}?') } })
  @Bind('ordered')
  ordered!: unknown;

  @Step({ tool: 'notify', args: { item: promptArg('item') } })
  @Bind('notified')
  notified!: unknown;
}

const reason = 'declined by the user: "How many apples?"';

interface Seen {
  readonly status: unknown;
  readonly reason: unknown;
  readonly steps: unknown;
  readonly last: string;
}

async function viaPrompt(client: TestClient): Promise<Seen> {
  const result = await client.getPrompt({ name: 'place_order', arguments: { item: 'apples' } });
  const meta = result._meta?.['mcpflow/execution'] as { status: string; reason: string; steps: unknown };
  return { status: meta.status, reason: meta.reason, steps: meta.steps, last: messageText(result.messages.at(-1)!) };
}

async function viaTool(client: TestClient): Promise<Seen> {
  const result = (await client.callTool({ name: 'place_order', arguments: { item: 'apples' } })) as {
    content: { type: string; text?: string }[];
    structuredContent?: { status: string };
    _meta?: Record<string, unknown>;
  };
  const meta = result._meta?.['mcpflow/execution'] as { status: string; reason: string; steps: unknown };
  expect(result.structuredContent?.status).toBe(meta.status);
  return { status: meta.status, reason: meta.reason, steps: meta.steps, last: messageText({ content: result.content.at(-1)! }) };
}

describe.each(MATRIX)('$label', ({ line, transport }) => {
  test.each([
    { face: 'prompt', action: 'decline' as const, run: viaPrompt },
    { face: 'prompt', action: 'cancel' as const, run: viaPrompt },
    { face: 'tool', action: 'decline' as const, run: viaTool },
    { face: 'tool', action: 'cancel' as const, run: viaTool },
  ])('through its $face face, a question the user answers with $action ends the run cancelled', async ({ action, run }) => {
    const calls: string[] = [];
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'shop', version: '1.0.0' });
        for (const tool of ['check_stock', 'order', 'notify'])
          server.registerTool(tool, { inputSchema: { item: z.string(), quantity: z.string().optional() } }, async () => {
            calls.push(tool);
            return { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } };
          });
        return server.use(PlaceOrder);
      },
      { transport, elicit: () => ({ action }) },
    );
    try {
      const seen = await run(client);
      expect(seen).toEqual({
        status: 'cancelled',
        reason,
        steps: [
          { name: 'stock', status: 'completed' },
          { name: 'ordered', status: 'cancelled' },
          { name: 'notified', status: 'skipped' },
        ],
        last:
          `The workflow stopped: ${reason}. The user's answer is final. ` +
          "Do not do the remaining steps ('ordered', 'notified') on the user's behalf: do not call their tools or look for the answer another way. " +
          'Tell the user the workflow was cancelled; run it again only if the user asks.',
      });
      expect(seen.last).not.toContain('yours to complete');
      expect(calls.filter((call) => call !== 'check_stock')).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

@Workflow({ name: 'reserve', description: 'Reserve seats', arguments: { show: z.string() } })
class Reserve {
  @Step({ tool: 'reserve', args: { show: promptArg('show'), seats: askUser('How many seats for {show}?') } })
  @Bind('reserved')
  reserved!: unknown;
}

describe.each(MATRIX)('$label', ({ line, transport }) => {
  test('a handoff after the user answered lists the answer as known, not as still to resolve', async () => {
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'theatre', version: '1.0.0' });
        // The tool refuses the answer ("two" is not digits): the run hands off at the step.
        server.registerTool('reserve', { inputSchema: { show: z.string(), seats: z.string().regex(/^\d+$/) } }, async () => ({
          content: [{ type: 'text', text: 'reserved' }],
        }));
        return server.use(Reserve);
      },
      { transport, elicit: () => ({ action: 'accept', content: { seats: 'two' } }) },
    );
    try {
      const result = await client.getPrompt({ name: 'reserve', arguments: { show: 'Hamlet' } });
      expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'handoff', questions: [{ status: 'answered' }] });
      const last = messageText(result.messages.at(-1)!);
      expect(last).toContain('Known arguments: {"show":"Hamlet","seats":"two"}');
      expect(last).not.toContain('still to resolve');
      expect(last).not.toContain('has not answered');
    } finally {
      await client.close();
    }
  });
});

@Workflow({ name: 'ship', description: 'Ship a parcel', arguments: { parcel: z.string() }, expose: { prompt: true, tool: true } })
class Ship {
  @Step({ tool: 'send_parcel', args: { parcel: promptArg('parcel'), to: askUser('Where to?'), when: askUser('When?') } })
  @Bind('shipped')
  shipped!: unknown;
}

describe.each(MATRIX)('$label', ({ line, transport }) => {
  test.each(['prompt', 'tool'])(
    'through its %s face, a client that cannot elicit gets a handoff, and every question not put is unasked',
    async (face) => {
      const client = await line.connect(
        () => {
          const server = new line.WorkflowServer({ name: 'post', version: '1.0.0' });
          server.registerTool('send_parcel', { inputSchema: { parcel: z.string(), to: z.string(), when: z.string() } }, async () => ({
            content: [{ type: 'text', text: 'shipped' }],
          }));
          return server.use(Ship);
        },
        { transport },
      );
      try {
        const result =
          face === 'prompt'
            ? await client.getPrompt({ name: 'ship', arguments: { parcel: 'P-1' } })
            : await client.callTool({ name: 'ship', arguments: { parcel: 'P-1' } });
        expect(result._meta?.['mcpflow/execution']).toMatchObject({
          status: 'handoff',
          rounds: 0,
          questions: [
            { key: 'shipped/to', status: 'unasked', attempts: 0 },
            { key: 'shipped/when', status: 'unasked', attempts: 0 },
          ],
        });
      } finally {
        await client.close();
      }
    },
  );
});

@Workflow({ name: 'checkout', description: 'Order, then notify', arguments: { item: z.string() } })
class Checkout {
  @Step({ tool: workflowTool(PlaceOrder), args: { item: promptArg('item') } })
  @Bind('placed')
  placed!: unknown;

  @Step({ tool: 'notify', args: { item: promptArg('item') } })
  @Bind('notified')
  notified!: unknown;
}

describe.each(SESSIONFUL)('$label', ({ line, transport }) => {
  test('a decline inside a sub-workflow is final for the outer run too: it ends cancelled, and its later steps do not run', async () => {
    const calls: string[] = [];
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'shop', version: '1.0.0' });
        for (const tool of ['check_stock', 'order', 'notify'])
          server.registerTool(tool, { inputSchema: { item: z.string(), quantity: z.string().optional() } }, async () => {
            calls.push(tool);
            return { content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } };
          });
        return server.use(Checkout);
      },
      { transport, elicit: () => ({ action: 'decline' }) },
    );
    try {
      const result = await client.getPrompt({ name: 'checkout', arguments: { item: 'apples' } });
      expect(result._meta?.['mcpflow/execution']).toMatchObject({
        status: 'cancelled',
        reason,
        stoppedAt: 'placed',
        steps: [
          { name: 'placed', status: 'cancelled' },
          { name: 'notified', status: 'skipped' },
        ],
      });
      expect(messageText(result.messages.at(-1)!)).toContain("Do not do the remaining steps ('placed', 'notified') on the user's behalf");
      expect(calls).toEqual(['check_stock']);
    } finally {
      await client.close();
    }
  });
});
