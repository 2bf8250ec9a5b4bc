import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, field, promptArg } from '@mcpflow/decorators';
import { STEPS_METADATA } from '@mcpflow/core/model';
import { UnregisteredResourceError, UnregisteredToolError, WorkflowValidationError, type ExecutionMeta } from '@mcpflow/core';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server';
import { WorkflowServer as WorkflowServerV2 } from '@mcpflow/core/v2';
import { LINES, MATRIX, v2 } from './helpers/lines';

@Workflow({ name: 'lookup', arguments: { id: z.string() } })
class Lookup {
  @Step({ tool: 'find_item', args: { id: promptArg('id') } })
  @Bind('item')
  item!: { kind: string };

  @Step({ resource: 'catalog://kinds/{kind}', resources: ['docs://style'] })
  @TemplateBinding('kind', field('item', 'kind'))
  kind!: string;
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

describe.each(LINES)('use(), validate() and connect() on SDK $name', (line) => {
  const unconnectedPair = () => (line === v2 ? InMemoryTransportV2 : InMemoryTransportV1).createLinkedPair()[1];

  test('an unregistered tool rejects connect() before anything is served', async () => {
    const server = new line.WorkflowServer({ name: 'rules', version: '1.0.0' }).use(Lookup);
    server.registerTool('find_items', { inputSchema: { id: z.string() } }, async () => ({ content: [] }));
    const connecting = server.connect(unconnectedPair() as never);
    await expect(connecting).rejects.toThrow(WorkflowValidationError);
    await connecting.catch((error: WorkflowValidationError) => {
      expect(error.errors[0]).toBeInstanceOf(UnregisteredToolError);
      expect(error.errors[0].message).toContain(
        "calls tool 'find_item', which this server has not registered. Registered tools: 'find_items'. Did you mean 'find_items'?",
      );
      expect(error.errors.slice(1).map((entry) => entry.constructor)).toEqual([UnregisteredResourceError, UnregisteredResourceError]);
    });
    expect(server.isConnected()).toBe(false);
  });

  test('registered tools, static resources and templates (operator expressions included) satisfy validate()', () => {
    const server = new line.WorkflowServer({ name: 'rules', version: '1.0.0' }).use(Lookup);
    expect(() => server.validate()).toThrow(WorkflowValidationError);
    server.registerTool('find_item', { inputSchema: { id: z.string() } }, async () => ({ content: [] }));
    server.registerResource('kinds', new line.ResourceTemplate('catalog://kinds{/kind}{?lang}', { list: undefined }), {}, async (uri) => ({
      contents: [{ uri: uri.href, text: '' }],
    }));
    server.registerResource('style', 'docs://style', {}, async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }));
    expect(() => server.validate()).toThrow(UnregisteredResourceError);
    server.registerResource('kind-pages', new line.ResourceTemplate('catalog://kinds/{kind}', { list: undefined }), {}, async (uri) => ({
      contents: [{ uri: uri.href, text: '' }],
    }));
    expect(() => server.validate()).not.toThrow();
  });

  test('use() registers all classes or none: a name taken by a plain prompt fails first', () => {
    @Workflow({ name: 'fresh' })
    class Fresh {
      @Step({ tool: 'a' })
      a!: unknown;
    }
    @Workflow({ name: 'taken' })
    class Taken {
      @Step({ tool: 'a' })
      a!: unknown;
    }
    const server = new line.WorkflowServer({ name: 'rules', version: '1.0.0' });
    server.registerPrompt('taken', {}, () => ({ messages: [] }));
    expect(() => server.use(Fresh, Taken)).toThrow(
      'Prompt taken is already registered on this server; give workflow class Taken another name.',
    );
    expect(() => server.use(Fresh)).not.toThrow();
  });

  test('a class is read and checked once: a server per request reads none of its steps again', () => {
    @Workflow({ name: 'once', arguments: { id: z.string() } })
    class Once {
      @Step({ tool: 'find_item', args: { id: promptArg('id') } })
      item!: unknown;
    }
    const stepReads = () => getMetadata.mock.calls.filter(([key, target]) => key === STEPS_METADATA && target === Once.prototype).length;
    const getMetadata = jest.spyOn(Reflect, 'getMetadata');
    try {
      new line.WorkflowServer({ name: 'first', version: '1.0.0' }).use(Once);
      expect(stepReads()).toBeGreaterThan(0);
      getMetadata.mockClear();
      for (let request = 0; request < 3; request += 1) new line.WorkflowServer({ name: 'per-request', version: '1.0.0' }).use(Once);
      expect(stepReads()).toBe(0);
    } finally {
      getMetadata.mockRestore();
    }
  });

  test('a raw-shape tool schema and a workflow argument schema are read once: a server per request does not describe them again', () => {
    const argument = z.string();
    @Workflow({ name: 'find', arguments: { id: argument } })
    class Find {
      @Step({ tool: 'find_item', args: { id: promptArg('id') } })
      item!: unknown;
    }
    const id = z.string();
    const shape = { id };
    const described = (schema: unknown = id) => registryReads.mock.calls.filter(([read]) => read === schema).length;
    const registryReads = jest.spyOn(z.globalRegistry, 'get');
    try {
      const serve = () => {
        const server = new line.WorkflowServer({ name: 'per-request', version: '1.0.0' });
        server.registerTool('find_item', { inputSchema: shape }, async () => ({ content: [] }));
        server.use(Find).validate();
      };
      serve();
      expect(described()).toBeGreaterThan(0);
      expect(described(argument)).toBeGreaterThan(0);
      registryReads.mockClear();
      for (let request = 0; request < 3; request += 1) serve();
      expect(described()).toBe(0);
      // Nor the workflow argument's schema, compared with the tool input it fills.
      expect(described(argument)).toBe(0);
    } finally {
      registryReads.mockRestore();
    }
  });
});

describe.each(MATRIX.filter((entry) => entry.line === v2))('SDK 2.x registration forms in a workflow: $label', ({ transport }) => {
  @Workflow({ name: 'weigh', arguments: { item: z.string() } })
  class Weigh {
    @Step({ tool: 'weigh', args: { item: promptArg('item') } })
    @Bind('weight')
    weight!: { grams: number };

    @Step({ tool: 'describe', args: { grams: field('weight', 'grams') } })
    described!: unknown;
  }

  /** Tools declared with z.object schemas (the 2.x form), one with an output schema. */
  function scales(weighed: unknown) {
    return () => {
      const server = new WorkflowServerV2({ name: 'scales', version: '1.0.0' });
      server.registerTool(
        'weigh',
        { inputSchema: z.object({ item: z.string() }), outputSchema: z.object({ grams: z.number() }) },
        async ({ item }) => ({
          content: [{ type: 'text', text: `weighed ${item}` }],
          structuredContent: weighed as Record<string, unknown>,
        }),
      );
      server.registerTool('describe', { inputSchema: z.object({ grams: z.number().int() }) }, async ({ grams }) => ({
        content: [{ type: 'text', text: `${grams} g` }],
      }));
      server.registerPrompt('hello', { description: 'No arguments' }, () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }],
      }));
      server.registerPrompt('greet', { argsSchema: z.object({ who: z.string() }) }, ({ who }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `hi ${who}` } }],
      }));
      return server.use(Weigh);
    };
  }

  test('structured content checked against the output schema binds the step', async () => {
    const client = await v2.connect(scales({ grams: 120 }) as never, { transport });
    const result = await client.getPrompt({ name: 'weigh', arguments: { item: 'apple' } });
    expect(meta(result).status).toBe('completed');
    expect(result.messages.at(-1)?.content).toEqual({ type: 'text', text: 'Result of describe:\n120 g' });
    await client.close();
  });

  test('structured content that fails the output schema fails the step, as tools/call would', async () => {
    const client = await v2.connect(scales({ grams: 'heavy' }) as never, { transport });
    const result = await client.getPrompt({ name: 'weigh', arguments: { item: 'apple' } });
    expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'weight' });
    expect(meta(result).reason).toMatch(/^tool weigh threw: invalid structured content for tool weigh: grams: /);
    await client.close();
  });

  test('an input that fails a z.object schema hands off with the schema issue, naming the field', async () => {
    const client = await v2.connect(scales({ grams: 1.5 }) as never, { transport });
    const result = await client.getPrompt({ name: 'weigh', arguments: { item: 'apple' } });
    expect(meta(result)).toMatchObject({ status: 'handoff', stoppedAt: 'described' });
    expect(meta(result).reason).toMatch(/^Invalid arguments for tool describe: grams: /);
    await client.close();
  });

  test('plain prompts with and without a z.object schema keep working beside workflows', async () => {
    const client = await v2.connect(scales({ grams: 1 }) as never, { transport });
    expect((await client.getPrompt({ name: 'hello' })).messages[0].content).toEqual({ type: 'text', text: 'hello' });
    expect((await client.getPrompt({ name: 'greet', arguments: { who: 'ann' } })).messages[0].content).toEqual({
      type: 'text',
      text: 'hi ann',
    });
    await expect(client.getPrompt({ name: 'greet', arguments: {} })).rejects.toThrow(
      "Invalid arguments for prompt greet: argument 'who' is required",
    );
    await client.close();
  });
});
