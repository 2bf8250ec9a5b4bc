import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, defineResource, defineTool, promptArg } from '@mcpflow/decorators';
import { MATRIX, type TestClient } from './helpers/lines';

/**
 * DESIGN §1 "Private step tools": a tool or resource defined with `visibility: 'workflow'` is run by
 * workflows in process, but clients neither list it nor call it — `tools/call` and `resources/read`
 * answer exactly as for a name the server does not have — on both lines and every transport.
 */

const placeOrder = defineTool(
  'place_order',
  { description: 'Place an order', inputSchema: { item: z.string() }, outputSchema: { id: z.string() }, visibility: 'workflow' },
  async ({ item }) => ({ content: [{ type: 'text', text: `order for ${item}` }], structuredContent: { id: `order-${item}` } }),
);
const stock = defineResource('stock', 'shop://stock/{item}', { mimeType: 'text/plain', visibility: 'workflow' }, async (uri, { item }) => ({
  contents: [{ uri: uri.href, text: `3 ${item} in stock` }],
}));
const terms = defineResource('terms', 'shop://terms', { mimeType: 'text/plain', visibility: 'workflow' }, async (uri) => ({
  contents: [{ uri: uri.href, text: 'No refunds.' }],
}));
const catalogue = defineTool('catalogue', { description: 'What the shop sells', inputSchema: {} }, async () => ({
  content: [{ type: 'text', text: 'apples' }],
}));

@Workflow({ name: 'buy', description: 'Buy an item', arguments: { item: z.string() } })
class Buy {
  @Step({ resource: terms })
  @Bind('terms')
  terms!: string;

  @Step({ resource: stock })
  @TemplateBinding('item', promptArg('item'))
  @Bind('stock')
  stock!: string;

  @Step({ tool: placeOrder, args: { item: promptArg('item') } })
  @Bind('order')
  order!: { id: string };

  @Step({ tool: catalogue, args: {} })
  @Bind('catalogue')
  catalogue!: unknown;
}

/** What a client gets for a request, as JSON: the result, or the error's code and message; the name asked for as NAME. */
async function outcome(request: Promise<unknown>, name: string): Promise<string> {
  let seen: unknown;
  try {
    seen = { result: await request };
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    seen = { error: { code, message } };
  }
  return JSON.stringify(seen).replaceAll(name, 'NAME');
}

/** A public resource, so that the server serves resources at all (as a server with private ones among others does). */
const hours = defineResource('hours', 'shop://hours', { mimeType: 'text/plain' }, async (uri) => ({
  contents: [{ uri: uri.href, text: '9 to 5' }],
}));

describe.each(MATRIX)('$label', ({ line, transport }) => {
  let client: TestClient;
  beforeEach(async () => {
    client = await line.connect(() => new line.WorkflowServer({ name: 'shop', version: '1.0.0' }).registerDefinitions(hours).use(Buy), {
      transport,
    });
  });
  afterEach(() => client.close());

  test('a workflow calls its private tool and reads its private resources in process', async () => {
    const result = await client.getPrompt({ name: 'buy', arguments: { item: 'apples' } });
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    const trace = JSON.stringify(result.messages);
    expect(trace).toContain('No refunds.');
    expect(trace).toContain('3 apples in stock');
    expect(trace).toContain('order for apples');
  });

  test('clients do not see them listed', async () => {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['catalogue']);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['shop://hours']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
  });

  test('a client calling or reading them gets what an unknown name gets, byte for byte', async () => {
    const called = await outcome(client.callTool({ name: 'place_order', arguments: { item: 'apples' } }), 'place_order');
    expect(called).toEqual(await outcome(client.callTool({ name: 'no_such_tool', arguments: { item: 'apples' } }), 'no_such_tool'));
    expect(called).not.toContain('order for apples');
    const read = await outcome(client.readResource({ uri: 'shop://stock/apples' }), 'shop://stock/apples');
    expect(read).toEqual(await outcome(client.readResource({ uri: 'nowhere://stock/apples' }), 'nowhere://stock/apples'));
    expect(read).not.toContain('in stock');
    expect(await outcome(client.readResource({ uri: 'shop://terms' }), 'shop://terms')).toEqual(
      await outcome(client.readResource({ uri: 'nowhere://terms' }), 'nowhere://terms'),
    );
  });
});
