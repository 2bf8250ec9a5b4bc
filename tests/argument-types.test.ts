import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, defineTool, promptArg } from '@mcpflow/decorators';
import { MATRIX } from './helpers/lines';

/**
 * DESIGN §1 (workflow arguments): a workflow served only as a tool may declare any zod argument
 * schemas, and its tool face parses them as typed values (a number stays a number). The rules for
 * prompt-face arguments and ask answers: packages/core/test/rules.test.ts (use(), validate()) and
 * the transformer's must-fail fixtures ask-answer-type.ts and prompt-argument-type.ts.
 */

@Workflow({
  name: 'order_typed',
  description: 'Order items, served only as a tool',
  arguments: { item: z.string(), quantity: z.number().int() },
  expose: { prompt: false, tool: true },
})
class OrderTyped {
  @Step({ tool: 'order', args: { item: promptArg('item'), quantity: promptArg<number>('quantity') } })
  @Bind('ordered')
  ordered!: unknown;
}

/** A tool definition whose input is typed: `promptArg<number>()` flows into it typed, checked by TypeScript. */
const placeOrder = defineTool(
  'place_order',
  { inputSchema: { item: z.string(), quantity: z.number().int(), gift: z.boolean() } },
  async ({ item, quantity, gift }) => ({
    content: [{ type: 'text', text: `${quantity + 1} - 1 × ${item} (${typeof quantity}), gift: ${String(gift)} (${typeof gift})` }],
  }),
);

@Workflow({
  name: 'place_typed',
  description: 'Place an order, served only as a tool',
  arguments: { item: z.string(), quantity: z.number().int(), gift: z.boolean() },
  expose: { prompt: false, tool: true },
})
class PlaceTyped {
  @Step({ tool: placeOrder, args: { item: promptArg('item'), quantity: promptArg<number>('quantity'), gift: promptArg<boolean>('gift') } })
  placed!: unknown;

  // The same typed argument into a tool registered by name whose input is a number: validate() reads the argument's schema.
  @Step({ tool: 'count_items', args: { count: promptArg<number>('quantity') } })
  counted!: unknown;
}

describe.each(MATRIX)('$label', ({ line, transport }) => {
  test('a workflow served only as a tool takes typed arguments: a number stays a number', async () => {
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'shop', version: '1.0.0' });
        server.registerTool('order', { inputSchema: { item: z.string(), quantity: z.any() } }, async ({ item, quantity }) => ({
          content: [{ type: 'text', text: `${String(quantity)} × ${item} (${typeof quantity})` }],
        }));
        return server.use(OrderTyped);
      },
      { transport },
    );
    try {
      const listed = (await client.listTools()).tools.find((tool) => tool.name === 'order_typed');
      expect(listed?.inputSchema.properties).toMatchObject({ quantity: { type: 'integer' } });
      const result = (await client.callTool({ name: 'order_typed', arguments: { item: 'apples', quantity: 3 } })) as {
        structuredContent?: { status: string };
        content: { type: string; text?: string }[];
      };
      expect(result.structuredContent?.status).toBe('completed');
      expect(JSON.stringify(result.content)).toContain('3 × apples (number)');
    } finally {
      await client.close();
    }
  });

  test('a typed argument flows into typed tool inputs: promptArg<number>() reaches the tool as a number, connect() accepts it', async () => {
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'shop', version: '1.0.0' });
        server.registerTool('count_items', { inputSchema: { count: z.number().int() } }, async ({ count }) => ({
          content: [{ type: 'text', text: `counted ${(count * 2) / 2} (${typeof count})` }],
        }));
        return server.use(PlaceTyped);
      },
      { transport },
    );
    try {
      const result = (await client.callTool({ name: 'place_typed', arguments: { item: 'apples', quantity: 3, gift: true } })) as {
        structuredContent?: { status: string };
        content: { type: string; text?: string }[];
      };
      expect(result.structuredContent?.status).toBe('completed');
      const text = JSON.stringify(result.content);
      expect(text).toContain('4 - 1 × apples (number), gift: true (boolean)');
      expect(text).toContain('counted 3 (number)');
    } finally {
      await client.close();
    }
  });
});
