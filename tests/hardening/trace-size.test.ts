import 'reflect-metadata';
import path from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Bind, Step, Workflow, promptArg } from '@mcpflow/decorators';
import { DEFAULT_MAX_TRACE_BYTES, type ExecutionMeta, type WorkflowServingOptions } from '@mcpflow/core';
import { createCodeReviewServer } from '../../examples/code-review/server';
import { connect } from '../helpers/connect';
import { IN_MEMORY } from '../helpers/lines';

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;
const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
const occurrences = (text: string, part: string) => text.split(part).length - 1;

/** About `size` characters of plausible source code, with a marker that occurs once. */
function sourceOfSize(size: number): string {
  const line = '\tconst label: any = format("say \\"hi\\"", options) ?? fallback;\n';
  return `// unique-marker-7f3a\n${line.repeat(Math.ceil(size / line.length))}`;
}

test('code_review shows a large argument once in the intent, not again in each call announcement', async () => {
  const code = sourceOfSize(200_000);
  const client = await connect(createCodeReviewServer());
  const result = await client.getPrompt({ name: 'code_review', arguments: { code } });
  expect(meta(result).status).toBe('completed');
  const wire = JSON.stringify(result);
  // Once in the intent, once inside the annotated code format_results returns; never in an announcement.
  expect(occurrences(wire, 'unique-marker-7f3a')).toBe(2);
  const size = code.length.toLocaleString('en-US');
  const announcements = result.messages.filter(
    (message) => message.content.type === 'text' && message.content.text.startsWith('Calling tool'),
  );
  expect(announcements.map((message) => (message.content as { text: string }).text)).toEqual([
    `Calling tool analyze_code with arguments: {"code":"[the prompt argument 'code' above, ${size} characters]"}`,
    expect.stringMatching(/^Calling tool review_code with arguments: \{"summary":/),
    expect.stringContaining(
      `Calling tool format_results with arguments: {"code":"[the prompt argument 'code' above, ${size} characters]","issues":[`,
    ),
  ]);
  await client.close();
});

test("a 2.44 MB argument to the code_review example over stdio: the client receives the trace within the SDK's 10 MB buffer", async () => {
  const serverScript = path.join(__dirname, '..', '..', 'examples', 'dist', 'code-review', 'server.js');
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverScript], stderr: 'pipe' });
  const client = new Client({ name: 'stdio-big', version: '1.0.0' });
  await client.connect(transport);
  try {
    const code = sourceOfSize(2_440_000);
    const result = await client.getPrompt({ name: 'code_review', arguments: { code } });
    expect(meta(result).status).toBe('completed');
    expect(bytes(result)).toBeLessThanOrEqual(DEFAULT_MAX_TRACE_BYTES);
    expect(result.messages.at(-1)?.content).toMatchObject({ type: 'text', text: expect.stringContaining('unique-marker-7f3a') });
  } finally {
    await client.close();
  }
});

@Workflow({ name: 'bulky', arguments: { size: z.string() } })
class Bulky {
  @Step({ tool: 'produce', args: { size: promptArg('size') } })
  @Bind('produced')
  produced!: unknown;

  @Step({ tool: 'finish' })
  finished!: unknown;
}

// Megabytes of trace: in memory, where the transport adds nothing but time.
describe.each(IN_MEMORY)('maxTraceBytes bounds the whole result, and says where it cut: $label', ({ line, transport }) => {
  function bulkyServer(options?: WorkflowServingOptions) {
    return () => {
      const server = new line.WorkflowServer({ name: 'bulky', version: '1.0.0' }, options);
      server.registerTool('produce', { inputSchema: { size: z.string() } }, async ({ size }) => ({
        content: [{ type: 'text', text: `${'y'.repeat(Number(size))}THE-END` }],
      }));
      server.registerTool('finish', {}, async () => ({ content: [{ type: 'text', text: 'finished fine' }] }));
      return server.use(Bulky);
    };
  }

  const connectTo = (factory: () => ReturnType<ReturnType<typeof bulkyServer>>) => line.connect(factory, { transport });

  test('by default: a 12 MB tool output is cut to keep the result under the stdio buffer, and the later steps still show', async () => {
    expect(DEFAULT_MAX_TRACE_BYTES).toBe(8 * 1024 * 1024);
    const client = await connectTo(bulkyServer());
    const result = await client.getPrompt({ name: 'bulky', arguments: { size: String(12 * 1024 * 1024) } });
    expect(bytes(result)).toBeLessThanOrEqual(DEFAULT_MAX_TRACE_BYTES);
    expect(meta(result)).toMatchObject({ status: 'completed', truncated: { limitBytes: DEFAULT_MAX_TRACE_BYTES } });
    const cut = result.messages[3].content as { type: 'text'; text: string };
    expect(cut.text.startsWith('Result of produce:\nyyyy')).toBe(true);
    expect(cut.text).toMatch(
      /\n\[truncated by mcpflow: [\d,]+ more characters not shown; the trace is limited to 8,388,608 bytes \(maxTraceBytes\)\]$/,
    );
    expect(cut.text).not.toContain('THE-END');
    expect(result.messages.at(-1)?.content).toEqual({ type: 'text', text: 'Result of finish:\nfinished fine' });
    await client.close();
  });

  test('configured: 64 KiB', async () => {
    const client = await connectTo(bulkyServer({ maxTraceBytes: 64 * 1024 }));
    const result = await client.getPrompt({ name: 'bulky', arguments: { size: '200000' } });
    expect(bytes(result)).toBeLessThanOrEqual(64 * 1024);
    expect(meta(result).truncated?.limitBytes).toBe(64 * 1024);
    const small = await client.getPrompt({ name: 'bulky', arguments: { size: '100' } });
    expect(meta(small).truncated).toBeUndefined();
    expect(small.messages[3].content).toEqual({ type: 'text', text: `Result of produce:\n${'y'.repeat(100)}THE-END` });
    await client.close();
  });

  test('an invalid bound is refused when the server is made', () => {
    expect(() => bulkyServer({ maxTraceBytes: 0 })()).toThrow(/maxTraceBytes must be a positive number of bytes/);
  });
});
