import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, field, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { MATRIX, SESSIONFUL, messageText, type Line, type TestServer } from './helpers/lines';

@Workflow({ name: 'pipeline', description: 'Fetch, enrich and store a record', arguments: { id: z.string() } })
class Pipeline {
  @Step({ tool: 'fetch', args: { id: promptArg('id') } })
  @Bind('record')
  record!: { id: string; tags: { name: string }[] };

  @Step({ tool: 'enrich', args: { tag: field('record', 'tags.0.name') }, guidance: 'Enriching {id}.', resources: ['docs://enrich'] })
  @Bind('enriched')
  enriched!: { score: number };

  @Step({ tool: 'store', args: { id: promptArg('id'), score: field('enriched', 'score') } })
  stored!: unknown;
}

type Behaviour = 'ok' | 'throw' | 'isError' | 'needs-extra-input' | 'missing-field';

/** A factory of pipeline servers (one per connection, or per request when stateless) sharing one call count. */
function pipelineServer(line: Line, behaviour: { current: Behaviour }, add: (server: TestServer) => void = () => undefined) {
  const calls = { fetch: 0, enrich: 0, store: 0 };
  const handles: { fetch?: ReturnType<TestServer['registerTool']> } = {};
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'pipeline', version: '1.0.0' });
    handles.fetch = server.registerTool('fetch', { inputSchema: { id: z.string() } }, async ({ id }) => {
      calls.fetch += 1;
      const tags = behaviour.current === 'missing-field' ? [] : [{ name: 'urgent' }];
      return { content: [{ type: 'text', text: JSON.stringify({ id, tags }) }] };
    });
    server.registerTool(
      'enrich',
      { description: 'Score a tag', inputSchema: { tag: z.string(), region: z.string().describe('Sales region') } },
      async ({ tag }) => {
        calls.enrich += 1;
        if (behaviour.current === 'throw') throw new Error('enrichment service unreachable');
        if (behaviour.current === 'isError') return { content: [{ type: 'text', text: 'quota exceeded' }], isError: true };
        return { content: [{ type: 'text', text: JSON.stringify({ score: tag.length }) }] };
      },
    );
    server.registerTool('store', { inputSchema: { id: z.string(), score: z.number() } }, async () => {
      calls.store += 1;
      return { content: [{ type: 'text', text: 'stored' }] };
    });
    server.registerResource('enrich-doc', 'docs://enrich', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'How to enrich' }],
    }));
    add(server);
    return server.use(Pipeline);
  };
  return { factory, calls, handles };
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

describe.each(MATRIX)('hybrid handoff: $label', ({ line, transport }) => {
  test('a required tool input that no mapping covers hands off; later steps never run', async () => {
    const { factory, calls } = pipelineServer(line, { current: 'ok' });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'pipeline', arguments: { id: 'r1' } });
    expect(calls).toEqual({ fetch: 1, enrich: 0, store: 0 });
    const texts = result.messages.map(messageText);
    expect(texts.slice(2)).toEqual([
      'Calling tool fetch with arguments: {"id":"r1"}',
      'Result of fetch:\n{"id":"r1","tags":[{"name":"urgent"}]}',
      'Enriching r1.',
      '[resource docs://enrich]',
      "I cannot complete step 'enriched' on the server: tool enrich needs 'region' (no argument of the step provides it).\n" +
        'The remaining steps are yours to complete, in order:\n' +
        '2. enriched: call tool enrich — Score a tag\n' +
        '   Known arguments: {"tag":"urgent"}\n' +
        '   Arguments you must decide: region (string, required: Sales region)\n' +
        '3. stored: call tool store\n' +
        '   Known arguments: {"id":"r1"}\n' +
        "   Arguments still to resolve: score (from the result bound as 'enriched' by an earlier remaining step)\n" +
        'Use the guidance and resources above; call each tool yourself once its arguments are known.',
    ]);
    expect(result.messages.at(-1)?.role).toBe('assistant');
    expect(meta(result)).toEqual({
      status: 'handoff',
      steps: [
        { name: 'record', status: 'completed' },
        { name: 'enriched', status: 'handoff' },
        { name: 'stored', status: 'skipped' },
      ],
      stoppedAt: 'enriched',
      reason: "tool enrich needs 'region' (no argument of the step provides it)",
    });
    await client.close();
  });

  test('a value that cannot be resolved (a field path missing from the real output) hands off', async () => {
    const { factory, calls } = pipelineServer(line, { current: 'missing-field' });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'pipeline', arguments: { id: 'r2' } });
    expect(calls.enrich).toBe(0);
    expect(meta(result).reason).toBe(
      "tool enrich needs 'tag' (field 'tags.0.name' is not in binding 'record': 'tags' is an array of 0 and has no '0'), 'region' (no argument of the step provides it)",
    );
    await client.close();
  });
});

describe.each(MATRIX)('failure stops execution with the partial trace, and the server keeps serving: $label', ({ line, transport }) => {
  test.each([
    ['throw', "Step 'enriched' failed: tool enrich threw: enrichment service unreachable. The workflow stopped here."],
    ['isError', "Step 'enriched' failed: tool enrich returned an error: quota exceeded. The workflow stopped here."],
  ] as const)('a tool that %s', async (kind, message) => {
    @Workflow({ name: 'simple', arguments: { id: z.string() } })
    class Simple {
      @Step({ tool: 'fetch', args: { id: promptArg('id') } })
      @Bind('record')
      record!: unknown;

      @Step({ tool: 'enrich', name: 'enriched', args: { tag: promptArg('id'), region: promptArg('id') } })
      @Bind('enriched')
      enriched!: unknown;

      @Step({ tool: 'store', args: { id: promptArg('id'), score: field('enriched', 'score') } })
      stored!: unknown;
    }
    const behaviour = { current: kind as Behaviour };
    const { factory, calls } = pipelineServer(line, behaviour, (server) => server.use(Simple));
    const client = await line.connect(factory, { transport });
    const failed = await client.getPrompt({ name: 'simple', arguments: { id: 'abc' } });
    expect(failed.messages.at(-1)).toEqual({ role: 'user', content: { type: 'text', text: message } });
    expect(calls).toEqual({ fetch: 1, enrich: 1, store: 0 });
    expect(meta(failed)).toMatchObject({
      status: 'failed',
      stoppedAt: 'enriched',
      steps: [{ status: 'completed' }, { status: 'failed' }, { status: 'skipped' }],
    });

    behaviour.current = 'ok';
    const next = await client.getPrompt({ name: 'simple', arguments: { id: 'abc' } });
    expect(meta(next).status).toBe('completed');
    expect(calls).toEqual({ fetch: 2, enrich: 2, store: 1 });
    await client.close();
  });

  test('a missing resource fails the resource step, naming it and the URI', async () => {
    @Workflow({ name: 'docs', arguments: { page: z.string() } })
    class Docs {
      @Step({ resource: 'docs://pages/{page}' })
      @TemplateBinding('page', promptArg('page'))
      page!: string;
    }
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'docs', version: '1.0.0' });
        server.registerResource(
          'pages',
          new line.ResourceTemplate('docs://pages/{page}', { list: undefined }),
          {},
          async (uri, { page }) => {
            if (page !== 'intro') throw new Error(`no page named ${String(page)}`);
            return { contents: [{ uri: uri.href, text: 'Welcome' }] };
          },
        );
        return server.use(Docs);
      },
      { transport },
    );
    const failed = await client.getPrompt({ name: 'docs', arguments: { page: 'nope' } });
    expect(messageText(failed.messages.at(-1)!)).toBe(
      "Step 'page' failed: could not read resource docs://pages/nope: no page named nope. The workflow stopped here.",
    );
    expect(meta(failed).status).toBe('failed');
    const ok = await client.getPrompt({ name: 'docs', arguments: { page: 'intro' } });
    expect(ok.messages.at(-1)).toEqual({
      role: 'user',
      content: { type: 'resource', resource: { uri: 'docs://pages/intro', text: 'Welcome' } },
    });
    await client.close();
  });
});

describe.each(SESSIONFUL)('registrations change while serving: $label', ({ line, transport }) => {
  test('a tool removed after connect fails its step instead of breaking the server', async () => {
    const { factory, handles } = pipelineServer(line, { current: 'ok' });
    const client = await line.connect(factory, { transport });
    handles.fetch!.remove();
    const result = await client.getPrompt({ name: 'pipeline', arguments: { id: 'x' } });
    expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'record', reason: 'tool fetch is not registered on this server' });
    await client.close();
  });
});
