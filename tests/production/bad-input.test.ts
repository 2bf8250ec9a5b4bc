import 'reflect-metadata';
import fc from 'fast-check';
import { z } from 'zod';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { Bind, Step, TemplateBinding, Workflow, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { IN_MEMORY, type Line } from '../helpers/lines';

@Workflow({ name: 'open_doc', arguments: { path: z.string().describe('Document name'), note: z.string().optional() } })
class OpenDoc {
  @Step({ tool: 'annotate', args: { path: promptArg('path'), note: promptArg('note') }, guidance: 'Opening {path} ({note})' })
  @Bind('annotated')
  annotated!: unknown;

  @Step({ resource: 'files://docs/{name}' })
  @TemplateBinding('name', promptArg('path'))
  doc!: string;
}

const HOSTILE = [
  '{',
  '}',
  '/',
  '..',
  '.',
  '?',
  '#',
  '%',
  '%2F',
  'a/../b?x=1#y {z}',
  '',
  ' ',
  'é漢字🙂',
  '{path}',
  '{{note}}',
  '\u0000',
  '../../etc/passwd',
];
const MEGABYTE = 'm'.repeat(1024 * 1024);

type ProtocolErrorOf<L extends Line> = InstanceType<L['ProtocolError']>;

const value = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE) },
  { weight: 4, arbitrary: fc.array(fc.constantFrom(...HOSTILE), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')) },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
    ),
  },
  { weight: 1, arbitrary: fc.constant(MEGABYTE) },
);
const argumentsMap = fc.option(
  fc.dictionary(fc.oneof(fc.constantFrom('path', 'note', 'extra', 'PATH'), fc.string({ maxLength: 8 })), value, { maxKeys: 4 }),
  { nil: undefined },
);

test.each(IN_MEMORY)(
  'random argument maps: every answer is a well-formed trace or InvalidParams naming the argument; URIs never leave their template: $label',
  async ({ line }) => {
    const reads: { uri: string; name: unknown }[] = [];
    const client = await line.connect(() => {
      const server = new line.WorkflowServer({ name: 'docs', version: '1.0.0' });
      server.registerTool('annotate', { inputSchema: { path: z.string(), note: z.string().optional() } }, async ({ path }) => ({
        content: [{ type: 'text', text: `annotated ${path.length} chars` }],
      }));
      server.registerResource('docs', new line.ResourceTemplate('files://docs/{name}', { list: undefined }), {}, async (uri, { name }) => {
        reads.push({ uri: uri.href, name });
        return { contents: [{ uri: uri.href, text: `doc of ${String(name).length} chars` }] };
      });
      return server.use(OpenDoc);
    });

    await fc.assert(
      fc.asyncProperty(argumentsMap, async (args) => {
        reads.length = 0;
        let result;
        try {
          result = await client.getPrompt({ name: 'open_doc', arguments: args as Record<string, string> | undefined });
        } catch (error) {
          expect(error).toBeInstanceOf(line.ProtocolError);
          expect((error as ProtocolErrorOf<Line>).code).toBe(ErrorCode.InvalidParams);
          const match = /argument (?:'([^'\\\n]*)'|("(?:[^"\\]|\\.)*"))/.exec((error as ProtocolErrorOf<Line>).message);
          const named = match?.[1] ?? (match?.[2] && (JSON.parse(match[2]) as string));
          expect(named).toBeDefined();
          expect([...Object.keys(args ?? {}), 'path']).toContain(named);
          return;
        }
        const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta;
        expect(['completed', 'handoff']).toContain(meta.status);
        expect(result.messages.length).toBeGreaterThanOrEqual(3);
        const path = (args as Record<string, string>).path;
        for (const read of reads) {
          // One path segment under files://docs/, and the handler sees exactly the value that was sent.
          expect(read.uri).toMatch(/^files:\/\/docs\/[^/?#]+$/);
          expect(read.name).toBe(path);
        }
        // Only values no URI of this template can hold hand off: empty or dot segments, and values beyond
        // the SDK's 1,000,000-character limit.
        if (meta.status === 'handoff') expect(['', '.', '..'].includes(path) || path.length > 1_000_000).toBe(true);
      }),
      { numRuns: 1000, seed: 20261122 },
    );
    // Still serving after all of it.
    const ok = await client.getPrompt({ name: 'open_doc', arguments: { path: 'readme' } });
    expect((ok._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
    await client.close();
  },
  120000,
);
