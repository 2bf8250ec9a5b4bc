import 'reflect-metadata';
import { z } from 'zod';
import { Step, TemplateBinding, Workflow, promptArg } from '@mcpflow/decorators';
import { InvalidUriTemplateError, WorkflowValidationError, type ExecutionMeta } from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v1';
import { IN_MEMORY, MATRIX } from '../../helpers/lines';

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

/** A workflow reading `template` with its one variable `v` filled from the prompt argument `value`. */
function readerOf(template: string, name: string) {
  @Workflow({ name, arguments: { value: z.string() } })
  class Reader {
    @Step({ resource: template })
    @TemplateBinding('v', promptArg('value'))
    read!: string;
  }
  return Reader;
}

describe.each(MATRIX)('every URI template operator mcpflow accepts works end to end: $label', ({ line, transport }) => {
  test.each([
    ['docs://pages/{v}', 'a b/c?d'],
    ['docs://pages{/v}', 'a b/c?d'],
    ['docs://pages/file{.v}', 'md'],
    ['docs://pages/{+v}', 'guides/intro'],
    ['docs://pages/search{?v}', 'a b&c=d'],
    ['docs://pages/search?lang=en{&v}', 'a b&c=d'],
  ])('%s with %j', async (template, value) => {
    const seen: unknown[] = [];
    const reader = readerOf(template, 'read_page');
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'ops', version: '1.0.0' });
        server.registerResource('pages', new line.ResourceTemplate(template, { list: undefined }), {}, async (uri, { v }) => {
          seen.push(v);
          return { contents: [{ uri: uri.href, text: `page ${String(v)}` }] };
        });
        return server.use(reader);
      },
      { transport },
    );
    const result = await client.getPrompt({ name: 'read_page', arguments: { value } });
    expect(meta(result).status).toBe('completed');
    expect(seen).toEqual([value]);
    await client.close();
  });
});

describe('operators that cannot round-trip are refused at use(), naming the fix', () => {
  test.each([
    ['docs://guide{#v}', "'{#v}' uses the '#' operator"],
    ['docs://pages/{v:3}', "'{v:3}' uses a prefix modifier"],
    ['docs://pages/{;v}', "'{;v}' uses the ';' operator"],
    ['docs://pages/{v,w}', "'{v,w}' holds several variables"],
    ['docs://pages/{__proto__}', "names a variable '__proto__', which no matched URI can hold"],
  ])('%s', (template, detail) => {
    const server = new WorkflowServer({ name: 'ops', version: '1.0.0' });
    const error = (() => {
      try {
        server.use(readerOf(template, 'read_page'));
      } catch (caught) {
        return caught;
      }
    })();
    const errors = error instanceof WorkflowValidationError ? error.errors : [error];
    const refusal = errors.find((each) => each instanceof InvalidUriTemplateError && each.message.includes(detail));
    expect(refusal).toBeDefined();
    expect((refusal as Error).message).toMatch(/Fix: (use|remove|give|rename)/);
  });
});

describe.each(IN_MEMORY)('a URI variable named like an Object.prototype member is just a name: $label', ({ line, transport }) => {
  test.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf'])('{%s} with no value hands off saying so', async (variable) => {
    @Workflow({ name: 'by_name', arguments: { value: z.string().optional() } })
    class ByName {
      @Step({ resource: `docs://pages/{${variable}}`, resources: [`docs://pages/{${variable}}`] })
      @TemplateBinding(variable, promptArg('value'))
      read!: string;
    }
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'names', version: '1.0.0' });
        server.registerResource(
          'pages',
          new line.ResourceTemplate(`docs://pages/{${variable}}`, { list: undefined }),
          {},
          async (uri, variables) => ({
            contents: [{ uri: uri.href, text: `page ${JSON.stringify(variables)}` }],
          }),
        );
        return server.use(ByName);
      },
      { transport },
    );
    const missing = await client.getPrompt({ name: 'by_name', arguments: {} });
    expect(meta(missing)).toMatchObject({
      status: 'handoff',
      reason: `{${variable}} has no value: prompt argument 'value' was not provided`,
    });
    const given = await client.getPrompt({ name: 'by_name', arguments: { value: 'intro' } });
    expect(meta(given).status).toBe('completed');
    expect(given.messages.filter((message) => message.content.type === 'resource').map((message) => message.content)).toEqual(
      [0, 1].map(() => ({
        type: 'resource',
        resource: { uri: 'docs://pages/intro', text: `page {"${variable}":"intro"}` },
      })),
    );
    await client.close();
  });

  test('a declared argument named constructor, left out, renders as empty, not as a function', async () => {
    @Workflow({ name: 'ctor', arguments: { constructor: z.string().optional() } })
    class Ctor {
      @Step({ tool: 'echo', args: { text: promptArg('constructor') }, guidance: 'Using ({constructor})' })
      echoed!: unknown;
    }
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'ctor', version: '1.0.0' });
        server.registerTool('echo', { inputSchema: { text: z.string().optional() } }, async ({ text }) => ({
          content: [{ type: 'text', text: `echo ${text}` }],
        }));
        return server.use(Ctor);
      },
      { transport },
    );
    const result = await client.getPrompt({ name: 'ctor', arguments: {} });
    expect(JSON.stringify(result)).not.toContain('function');
    expect(result.messages[2].content).toEqual({ type: 'text', text: 'Using ()' });
    await client.close();
  });
});
