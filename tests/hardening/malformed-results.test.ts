import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, field, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { MATRIX, type Line } from '../helpers/lines';

@Workflow({ name: 'shaky_run', arguments: { variant: z.string() } })
class ShakyRun {
  @Step({ tool: 'warm_up' })
  @Bind('warm')
  warm!: unknown;

  @Step({ tool: 'shaky', args: { variant: promptArg('variant') } })
  @Bind('shaky')
  shaky!: unknown;

  @Step({ tool: 'after' })
  after!: unknown;
}

@Workflow({ name: 'shaky_read', arguments: { variant: z.string() } })
class ShakyRead {
  @Step({ tool: 'warm_up' })
  warm!: unknown;

  @Step({ resource: 'shaky://doc/{variant}' })
  @TemplateBinding('variant', promptArg('variant'))
  doc!: unknown;
}

@Workflow({ name: 'big_id', arguments: {} })
class BigId {
  @Step({ tool: 'warm_up' })
  warm!: unknown;

  @Step({ tool: 'shaky' })
  @Bind('record')
  record!: { id: number };

  @Step({ tool: 'after', args: { id: field('record', 'id') }, sensitiveArgs: ['id'] })
  after!: unknown;
}

function cyclic() {
  const node: Record<string, unknown> = { name: 'root' };
  node.self = { parent: node };
  return node;
}

/** A JSON value nested `levels` deep, and its text (written out: JSON.stringify itself overflows the stack on it). */
function nested(levels: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < levels; level += 1) value = { inner: value };
  return value;
}
const nestedText = (levels: number) => `${'{"inner":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;

const RESULTS: Record<string, () => unknown> = {
  'deep-structured': () => ({ content: [{ type: 'text', text: 'a deep tree' }], structuredContent: { tree: nested(6_000) } }),
  'deep-text': () => ({ content: [{ type: 'text', text: nestedText(6_000) }] }),
  bigint: () => ({ content: [{ type: 'text', text: 'rows: 1' }], structuredContent: { count: 12345678901234567890n } }),
  cycle: () => ({ content: [{ type: 'text', text: 'a tree' }], structuredContent: cyclic() }),
  'bogus-block': () => ({ content: [{ type: 'bogus', text: 'hello' }] }),
  'object-text': () => ({ content: [{ type: 'text', text: { nested: true } }] }),
  'throws-plain-object': () => {
    throw { message: 'rate limited by upstream' };
  },
  'throws-null-prototype': () => {
    throw Object.assign(Object.create(null), { code: 'E_NO_PROTO' });
  },
};

/** Shaky servers (one per connection, or per request when stateless) sharing their call count. */
function shakyServer(line: Line) {
  const calls = { after: 0 };
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'shaky', version: '1.0.0' });
    server.registerTool('warm_up', {}, async () => ({ content: [{ type: 'text', text: 'warm' }] }));
    server.registerTool('shaky', { inputSchema: { variant: z.string().optional() } }, (async ({ variant }: { variant?: string }) =>
      (RESULTS[variant ?? 'bigint'] ?? RESULTS.bigint)()) as never);
    server.registerTool('after', { inputSchema: { id: z.unknown().optional() } }, async () => {
      calls.after += 1;
      return { content: [{ type: 'text', text: 'after' }] };
    });
    server.registerResource('shaky-doc', new line.ResourceTemplate('shaky://doc/{variant}', { list: undefined }), {}, (async (
      uri: URL,
      { variant }: { variant: string },
    ) =>
      variant === 'number-text'
        ? { contents: [{ uri: uri.href, text: 42 }] }
        : variant === 'deep-json'
          ? { contents: [{ uri: uri.href, mimeType: 'application/json', text: nestedText(6_000) }] }
          : { contents: [{ uri: uri.href, blob: { not: 'base64' } }] }) as never);
    return server.use(ShakyRun, ShakyRead, BigId);
  };
  return { factory, calls };
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

describe.each(MATRIX)('a result that cannot be represented fails its step, and the trace so far is kept: $label', ({ line, transport }) => {
  test.each([
    ['bigint', 'tool shaky returned a result that cannot be sent as JSON: structuredContent.count is a BigInt'],
    [
      'cycle',
      'tool shaky returned a result that cannot be sent as JSON: structuredContent.self.parent refers back to structuredContent (a cycle)',
    ],
    [
      'bogus-block',
      "tool shaky returned a malformed result: content[0].type is 'bogus', not one of text, image, audio, resource_link, resource",
    ],
    ['object-text', 'tool shaky returned a malformed result: content[0].text is an object, not a string'],
    [
      'deep-structured',
      'tool shaky returned a result that cannot be sent as JSON: structuredContent is nested more than 1,000 levels deep',
    ],
    ['deep-text', 'tool shaky returned text that is JSON nested more than 1,000 levels deep'],
    ['throws-plain-object', 'tool shaky threw: rate limited by upstream'],
    ['throws-null-prototype', 'tool shaky threw: {"code":"E_NO_PROTO"}'],
  ])('%s', async (variant, reason) => {
    const { factory, calls } = shakyServer(line);
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'shaky_run', arguments: { variant } });
    expect(meta(result)).toEqual({
      status: 'failed',
      stoppedAt: 'shaky',
      reason,
      steps: [
        { name: 'warm', status: 'completed' },
        { name: 'shaky', status: 'failed' },
        { name: 'after', status: 'skipped' },
      ],
    });
    expect(result.messages[3].content).toEqual({ type: 'text', text: 'Result of warm_up:\nwarm' });
    expect(result.messages.at(-1)?.content).toEqual({ type: 'text', text: `Step 'shaky' failed: ${reason}. The workflow stopped here.` });
    expect(calls.after).toBe(0);
    // The server keeps serving.
    expect(meta(await client.getPrompt({ name: 'shaky_read', arguments: { variant: 'number-text' } })).status).toBe('failed');
    await client.close();
  });

  test.each([
    ['number-text', 'resource shaky://doc/number-text returned malformed contents: contents[0].text is a number, not a string'],
    ['object-blob', 'resource shaky://doc/object-blob returned malformed contents: contents[0].blob is an object, not a string'],
    ['deep-json', 'resource shaky://doc/deep-json returned JSON nested more than 1,000 levels deep'],
  ])('resource contents %s', async (variant, reason) => {
    const { factory } = shakyServer(line);
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'shaky_read', arguments: { variant } });
    expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'doc', reason });
    expect(result.messages.map((message) => message.content.type)).toEqual(['text', 'text', 'text', 'text', 'text', 'text']);
    expect(meta(await client.getPrompt({ name: 'shaky_read', arguments: { variant: 'number-text' } })).status).toBe('failed');
    await client.close();
  });

  test('a BigInt bound for a later sensitive argument fails the step that returned it', async () => {
    const { factory, calls } = shakyServer(line);
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'big_id', arguments: {} });
    expect(meta(result)).toMatchObject({
      status: 'failed',
      stoppedAt: 'record',
      reason: 'tool shaky returned a result that cannot be sent as JSON: structuredContent.count is a BigInt',
    });
    expect(calls.after).toBe(0);
    await client.close();
  });
});
