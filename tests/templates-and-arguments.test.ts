import 'reflect-metadata';
import { z } from 'zod';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { Bind, Step, TemplateBinding, Workflow, field, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v1';
import { connect } from './helpers/connect';
import { MATRIX, SESSIONFUL, type Line, type TestServer, type TransportName } from './helpers/lines';

@Workflow({ name: 'open_file', arguments: { path: z.string().describe('File name') } })
class OpenFile {
  @Step({ resource: 'files://docs/{name}' })
  @TemplateBinding('name', promptArg('path'))
  @Bind('content')
  content!: string;
}

/** A server per connection (or per request) with the docs template; `seen` collects what its handler received. */
function fileServer(line: Line, transport: TransportName, add: (server: TestServer) => void = () => undefined) {
  const seen: Variables[] = [];
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'files', version: '1.0.0' });
    server.registerResource(
      'docs',
      new line.ResourceTemplate('files://docs/{name}', { list: undefined }),
      { mimeType: 'text/plain' },
      async (uri, variables) => {
        seen.push(variables);
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `content of ${String(variables.name)}` }] };
      },
    );
    add(server);
    return server.use(OpenFile);
  };
  return { connect: () => line.connect(factory, { transport }), seen };
}

describe.each(MATRIX)('URI templates (RFC 6570): $label', ({ line, transport }) => {
  const hostile = 'a/../b?x=1#y {z}';

  test('a hostile value is encoded into exactly one path segment, and the handler receives it decoded', async () => {
    const { connect, seen } = fileServer(line, transport);
    const client = await connect();
    const result = await client.getPrompt({ name: 'open_file', arguments: { path: hostile } });
    const encoded = 'files://docs/a%2F..%2Fb%3Fx%3D1%23y%20%7Bz%7D';
    expect(result.messages.at(-2)).toEqual({ role: 'assistant', content: { type: 'text', text: `Reading resource ${encoded}` } });
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: { type: 'resource', resource: { uri: encoded, mimeType: 'text/plain', text: `content of ${hostile}` } },
    });
    const url = new URL(encoded);
    expect(url.pathname.split('/').filter(Boolean)).toEqual(['a%2F..%2Fb%3Fx%3D1%23y%20%7Bz%7D']);
    expect(url.search).toBe('');
    expect(url.hash).toBe('');
    expect(seen).toEqual([{ name: hostile }]);

    // A client reading the same URI gets the same decoded value at the handler.
    const read = await client.readResource({ uri: encoded });
    expect(read.contents).toEqual([{ uri: encoded, mimeType: 'text/plain', text: `content of ${hostile}` }]);
    expect(seen).toEqual([{ name: hostile }, { name: hostile }]);
    await client.close();
  });

  test.each(['..', '.'])('a value of %j would collapse as a dot segment, so the step hands off instead', async (value) => {
    const { connect, seen } = fileServer(line, transport);
    const client = await connect();
    const result = await client.getPrompt({ name: 'open_file', arguments: { path: value } });
    const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta;
    expect(meta.status).toBe('handoff');
    expect(meta.reason).toBe(
      `the value ${JSON.stringify(value)} for {name} cannot be placed in 'files://docs/{name}' without changing the URI's structure`,
    );
    expect(seen).toEqual([]);
    await client.close();
  });

  test('numbers and booleans fill a variable as text; objects and arrays hand off', async () => {
    @Workflow({ name: 'by_count' })
    class ByCount {
      @Step({ tool: 'count' })
      @Bind('stats')
      // flags is unknown to the compiler, so only the run-time check can see it is an array.
      stats!: { total: number; flags: unknown };

      @Step({ resource: 'files://docs/{name}' })
      @TemplateBinding('name', field('stats', 'total'))
      doc!: string;

      @Step({ resource: 'files://docs/{name}' })
      @TemplateBinding('name', field('stats', 'flags'))
      flags!: string;
    }
    const { connect, seen } = fileServer(line, transport, (server) => {
      server.registerTool('count', {}, async () => ({ content: [{ type: 'text', text: '{"total":42,"flags":["a"]}' }] }));
      server.use(ByCount);
    });
    const client = await connect();
    const result = await client.getPrompt({ name: 'by_count' });
    expect(seen).toEqual([{ name: '42' }]);
    expect((result._meta?.['mcpflow/execution'] as ExecutionMeta).reason).toBe(
      '{name} would be an array, and a URI variable takes a string, number or boolean',
    );
    await client.close();
  });
});

describe.each(MATRIX)('prompt arguments: $label', ({ line, transport }) => {
  const call = async (args: unknown) => {
    const client = await fileServer(line, transport).connect();
    try {
      await client.getPrompt({ name: 'open_file', arguments: args as Record<string, string> });
      throw new Error('expected an error');
    } catch (error) {
      return error as InstanceType<Line['ProtocolError']>;
    } finally {
      await client.close();
    }
  };

  test('a missing required argument is InvalidParams naming it', async () => {
    const error = await call({});
    expect(error).toBeInstanceOf(line.ProtocolError);
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("Invalid arguments for prompt open_file: argument 'path' is required (File name)");
  });

  test('a non-string argument is InvalidParams naming it, not an internal error', async () => {
    const error = await call({ path: 42 });
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("argument 'path' is invalid: Invalid input: expected string, received number");
  });

  test('an undeclared argument is InvalidParams with a suggestion', async () => {
    const error = await call({ path: 'a', paht: 'b' });
    expect(error.code).toBe(ErrorCode.InvalidParams);
    expect(error.message).toContain("unknown argument 'paht'. Did you mean 'path'?");
  });

  test('plain SDK prompts on the same server keep working, with the same argument errors', async () => {
    const client = await fileServer(line, transport, (server) => {
      server.registerPrompt('greet', { argsSchema: { who: z.string() } }, ({ who }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `hi ${who}` } }],
      }));
    }).connect();
    expect((await client.getPrompt({ name: 'greet', arguments: { who: 'ann' } })).messages[0].content).toEqual({
      type: 'text',
      text: 'hi ann',
    });
    await expect(client.getPrompt({ name: 'greet', arguments: { who: 1 as never } })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(client.getPrompt({ name: 'gret' })).rejects.toThrow("Prompt gret not found. Did you mean 'greet'?");
    await client.close();
  });
});

@Workflow({ name: 'echo', arguments: { text: z.string() } })
class Echo {
  @Step({ tool: 'echo', args: { text: promptArg('text') } })
  echoed!: unknown;
}

describe.each(SESSIONFUL)('tools run in process, as tools/call would run them: $label', ({ line, transport }) => {
  test("the tool receives the prompt request's context (auth, signal) and is looked up at call time", async () => {
    const server = new line.WorkflowServer({ name: 'echo', version: '1.0.0' });
    const seen: { token?: string; signal: boolean }[] = [];
    const tool = server.registerTool('echo', { description: 'v1', inputSchema: { text: z.string() } }, async ({ text }, context) => {
      seen.push({ token: line.authOf(context)?.token, signal: line.signalOf(context) instanceof AbortSignal });
      return { content: [{ type: 'text', text: `v1 ${text}` }] };
    });
    const client = await line.connect(() => server.use(Echo), {
      transport,
      authInfo: { token: 'secret-token', clientId: 'c', scopes: [] },
    });
    const first = await client.getPrompt({ name: 'echo', arguments: { text: 'hi' } });
    expect(first.messages.at(-1)?.content).toEqual({ type: 'text', text: 'Result of echo:\nv1 hi' });
    expect(seen).toEqual([{ token: 'secret-token', signal: true }]);

    tool.update({ description: 'v2', callback: async ({ text }) => ({ content: [{ type: 'text', text: `v2 ${text}` }] }) });
    const second = await client.getPrompt({ name: 'echo', arguments: { text: 'hi' } });
    expect(second.messages[1].content).toEqual({ type: 'text', text: 'Plan:\n1. echoed: call tool echo — v2' });
    expect(second.messages.at(-1)?.content).toEqual({ type: 'text', text: 'Result of echo:\nv2 hi' });

    tool.disable();
    const third = await client.getPrompt({ name: 'echo', arguments: { text: 'hi' } });
    expect((third._meta?.['mcpflow/execution'] as ExecutionMeta).reason).toBe('tool echo is disabled');

    // Removed, then registered again under the same name: the plan names the new tool's description.
    tool.remove();
    const removed = await client.getPrompt({ name: 'echo', arguments: { text: 'hi' } });
    expect(removed.messages[1].content).toEqual({ type: 'text', text: 'Plan:\n1. echoed: call tool echo' });
    server.registerTool('echo', { description: 'v3', inputSchema: { text: z.string() } }, async ({ text }) => ({
      content: [{ type: 'text', text: `v3 ${text}` }],
    }));
    const fourth = await client.getPrompt({ name: 'echo', arguments: { text: 'hi' } });
    expect(fourth.messages[1].content).toEqual({ type: 'text', text: 'Plan:\n1. echoed: call tool echo — v3' });
    expect(fourth.messages.at(-1)?.content).toEqual({ type: 'text', text: 'Result of echo:\nv3 hi' });
    await client.close();
  });
});

describe.each(MATRIX)('tool input validation: $label', ({ line, transport }) => {
  test('arguments that fail the tool input schema hand off with the validation error', async () => {
    let calls = 0;
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'echo', version: '1.0.0' });
        server.registerTool('echo', { inputSchema: { text: z.string().max(3) } }, async () => {
          calls += 1;
          return { content: [] };
        });
        return server.use(Echo);
      },
      { transport },
    );
    const result = await client.getPrompt({ name: 'echo', arguments: { text: 'too long' } });
    const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta;
    expect(meta.status).toBe('handoff');
    expect(meta.reason).toMatch(/^Invalid arguments for tool echo: .*too_big|Too big/);
    expect(calls).toBe(0);
    await client.close();
  });
});

test.each(MATRIX)('a workflow that declares no arguments rejects any it is given: $label', async ({ line, transport }) => {
  @Workflow({ name: 'no_args' })
  class NoArgs {
    @Step({ tool: 'ping' })
    ping!: unknown;
  }
  const client = await line.connect(
    () => {
      const server = new line.WorkflowServer({ name: 'ping', version: '1.0.0' });
      server.registerTool('ping', {}, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
      return server.use(NoArgs);
    },
    { transport },
  );
  expect((await client.getPrompt({ name: 'no_args' })).messages.at(-1)?.content).toEqual({ type: 'text', text: 'Result of ping:\npong' });
  await expect(client.getPrompt({ name: 'no_args', arguments: { x: '1' } })).rejects.toThrow("unknown argument 'x'. Declared: (none)");
  await client.close();
});

@Workflow({ name: 'brand', arguments: { company: z.string() } })
class Brand {
  @Step({ tool: 'describe_brand', args: { company: promptArg('company') }, resources: ['img://logo', 'docs://brand/{company}'] })
  @TemplateBinding('company', promptArg('company'))
  described!: unknown;
}

const brandTrace = [
  { role: 'user', content: { type: 'resource', resource: { uri: 'img://logo', mimeType: 'image/png', blob: 'iVBORw0KGgo=' } } },
  {
    role: 'user',
    content: { type: 'resource', resource: { uri: 'docs://brand/Acme%20%26%20Co', mimeType: 'text/plain', text: 'Guide for Acme & Co' } },
  },
  { role: 'assistant', content: { type: 'text', text: 'Calling tool describe_brand with arguments: {"company":"Acme & Co"}' } },
  { role: 'user', content: { type: 'text', text: 'Result of describe_brand:\nAcme & Co is bold' } },
];

test.each(MATRIX)('embedded resources keep blob content: $label', async ({ line, transport }) => {
  const client = await line.connect(
    () => {
      const server = new line.WorkflowServer({ name: 'brand', version: '1.0.0' });
      server.registerTool(
        'describe_brand',
        { description: 'Describe a brand', inputSchema: { company: z.string() } },
        async ({ company }) => ({ content: [{ type: 'text', text: `${company} is bold` }] }),
      );
      server.registerResource('logo', 'img://logo', { mimeType: 'image/png' }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'image/png', blob: 'iVBORw0KGgo=' }],
      }));
      server.registerResource(
        'brand-docs',
        new line.ResourceTemplate('docs://brand/{company}', { list: undefined }),
        {},
        async (uri, { company }) => ({
          contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Guide for ${String(company)}` }],
        }),
      );
      return server.use(Brand);
    },
    { transport },
  );
  const result = await client.getPrompt({ name: 'brand', arguments: { company: 'Acme & Co' } });
  expect(result.messages.slice(2)).toEqual(brandTrace);
  await client.close();
});

// tool() and resource() exist on SDK 1.x only.
test('embedded resources keep blob content; tools and resources registered the older way run in process too', async () => {
  const server = new WorkflowServer({ name: 'brand', version: '1.0.0' });
  server.tool('describe_brand', 'Describe a brand', { company: z.string() }, async ({ company }) => ({
    content: [{ type: 'text', text: `${company} is bold` }],
  }));
  server.resource('logo', 'img://logo', { mimeType: 'image/png' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'image/png', blob: 'iVBORw0KGgo=' }],
  }));
  server.resource('brand-docs', new ResourceTemplate('docs://brand/{company}', { list: undefined }), async (uri, { company }) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Guide for ${String(company)}` }],
  }));
  const client = await connect(server.use(Brand));
  const result = await client.getPrompt({ name: 'brand', arguments: { company: 'Acme & Co' } });
  expect(result.messages.slice(2)).toEqual([
    { role: 'user', content: { type: 'resource', resource: { uri: 'img://logo', mimeType: 'image/png', blob: 'iVBORw0KGgo=' } } },
    {
      role: 'user',
      content: { type: 'resource', resource: { uri: 'docs://brand/Acme%20%26%20Co', mimeType: 'text/plain', text: 'Guide for Acme & Co' } },
    },
    { role: 'assistant', content: { type: 'text', text: 'Calling tool describe_brand with arguments: {"company":"Acme & Co"}' } },
    { role: 'user', content: { type: 'text', text: 'Result of describe_brand:\nAcme & Co is bold' } },
  ]);
  await client.close();
});
