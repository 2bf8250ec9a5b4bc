import 'reflect-metadata';
import path from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Bind, Step, Workflow, promptArg } from '@mcpflow/decorators';
import { DEFAULT_MAX_TRACE_BYTES, type ExecutionMeta, type WorkflowServingOptions } from '@mcpflow/core';
import { createCodeReviewServer } from '../../examples/code-review/server';
import { connect } from '../helpers/connect';
import { IN_MEMORY, STDIO_MATRIX } from '../helpers/lines';

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

@Workflow({ name: 'bulky', arguments: { size: z.string() }, expose: { tool: true } })
class Bulky {
  @Step({ tool: 'produce', args: { size: promptArg('size') } })
  @Bind('produced')
  produced!: unknown;

  @Step({ tool: 'finish' })
  finished!: unknown;
}

@Workflow({ name: 'bulkier', arguments: { size: z.string() }, expose: { tool: true } })
class Bulkier {
  @Step({ tool: 'produce_a', args: { size: promptArg('size') } })
  @Bind('a')
  a!: unknown;

  @Step({ tool: 'produce_b', args: { size: promptArg('size') } })
  @Bind('b')
  b!: unknown;

  @Step({ tool: 'produce_c', args: { size: promptArg('size') } })
  @Bind('c')
  c!: unknown;
}

@Workflow({ name: 'noisy', expose: { tool: true } })
class Noisy {
  @Step({ tool: 'fail_a', optional: true })
  a!: unknown;

  @Step({ tool: 'fail_b', optional: true })
  b!: unknown;

  @Step({ tool: 'fail_c', optional: true })
  c!: unknown;

  @Step({ tool: 'fail_d' })
  d!: unknown;
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

  /** Three steps of `size` characters each, served as a tool. */
  function bulkierServer(options?: WorkflowServingOptions) {
    return () => {
      const server = new line.WorkflowServer({ name: 'bulkier', version: '1.0.0' }, options);
      for (const name of ['produce_a', 'produce_b', 'produce_c'])
        server.registerTool(name, { inputSchema: { size: z.string() } }, async ({ size }) => ({
          content: [{ type: 'text', text: `${'y'.repeat(Number(size))}THE-END` }],
        }));
      return server.use(Bulkier);
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

  test('the tool face (31.8): a 7 MiB output shows once, in the content; structuredContent says the value was left out', async () => {
    const client = await connectTo(bulkyServer());
    const result = await client.callTool({ name: 'bulky', arguments: { size: String(7 * 1024 * 1024) } });
    expect(bytes(result)).toBeLessThanOrEqual(DEFAULT_MAX_TRACE_BYTES);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({
      status: 'completed',
      outputs: {
        produced:
          "[truncated by mcpflow: the value of 'produced' (7,340,041 bytes of JSON) is not shown; the result is limited to 8,388,608 bytes (maxTraceBytes)]",
      },
      truncated: { limitBytes: DEFAULT_MAX_TRACE_BYTES, outputs: ['produced'] },
    });
    const content = result.content as { type: string; text: string }[];
    expect(content[3].text.endsWith('yyyyTHE-END')).toBe(true);
    expect(content.at(-1)).toEqual({ type: 'text', text: 'Result of finish:\nfinished fine' });
    expect(meta(result)).toMatchObject({ status: 'completed' });
    expect(meta(result).truncated).toBeUndefined();
    await client.close();
  });

  test('the tool face (31.8): outputs that fit their share stay, and the content gives way, each cut counted in full', async () => {
    const limit = 64 * 1024;
    const client = await connectTo(bulkierServer({ maxTraceBytes: limit }));
    const size = 30_000;
    const result = await client.callTool({ name: 'bulkier', arguments: { size: String(size) } });
    expect(bytes(result)).toBeLessThanOrEqual(limit);
    const structured = result.structuredContent as { outputs: Record<string, string>; truncated: { outputs: string[] } };
    // The outputs get half the room: two of the three values give way, one stays whole.
    expect(structured.truncated).toEqual({ limitBytes: limit, outputs: [expect.any(String), expect.any(String)] });
    const kept = ['a', 'b', 'c'].filter((name) => !structured.truncated.outputs.includes(name));
    expect(kept).toHaveLength(1);
    expect(structured.outputs[kept[0]]).toBe(`${'y'.repeat(size)}THE-END`);
    for (const name of structured.truncated.outputs)
      expect(structured.outputs[name]).toMatch(/^\[truncated by mcpflow: the value of '[abc]'/);
    // The content: each cut message says how many characters it leaves out, counting the trace's own cut and the tool face's.
    const cut = (result.content as { type: string; text: string }[]).filter((block) => block.text.includes('more characters not shown'));
    expect(cut.length).toBeGreaterThan(0);
    for (const block of cut) {
      const [, shown, count] =
        /^Result of produce_[abc]:\n(y*)\n\[truncated by mcpflow: ([\d,]+) more characters not shown; [^\n]*\]$/.exec(block.text)!;
      expect(shown.length + Number(count.replace(/,/g, ''))).toBe(size + 'THE-END'.length);
    }
    expect(meta(result).truncated).toEqual({ limitBytes: limit, messagesCut: cut.length, messagesDropped: 0 });
    await client.close();
  });

  test('_meta cannot push a result over (31.8): long reasons are cut shorter, keeping the length they had', async () => {
    const limit = 4_096;
    // Each failure's text is 3,000 control characters: 18,000 bytes of JSON, in _meta and in the trace.
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'noisy', version: '1.0.0' }, { maxTraceBytes: limit });
        for (const name of ['fail_a', 'fail_b', 'fail_c', 'fail_d'])
          server.registerTool(name, {}, async () => ({ isError: true, content: [{ type: 'text', text: '\u0001'.repeat(3_000) }] }));
        return server.use(Noisy);
      },
      { transport },
    );
    const prompt = await client.getPrompt({ name: 'noisy' });
    const tool = await client.callTool({ name: 'noisy' });
    for (const result of [prompt, tool]) {
      expect(bytes(result)).toBeLessThanOrEqual(limit);
      const execution = meta(result);
      expect(execution).toMatchObject({ status: 'failed', stoppedAt: 'd', truncated: { limitBytes: limit } });
      const reasons = [execution.reason, ...execution.steps.slice(0, 3).map((step) => step.reason)];
      for (const reason of reasons) {
        const [, name, shown] = /^tool fail_([abcd]) returned an error: (.+)… \(3,031 characters\)$/s.exec(reason ?? '') ?? [];
        expect(name).toBeDefined();
        expect(shown).toBe('\u0001'.repeat(shown.length));
      }
      expect(execution.steps.map((step) => step.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
    }
    await client.close();
  });

  test('an invalid bound is refused when the server is made', () => {
    expect(() => bulkyServer({ maxTraceBytes: 0 })()).toThrow(/maxTraceBytes must be a positive number of bytes/);
  });
});

// The red team's case (issue 31.8): a 7 MiB tool output made a 14 MiB tool result, over the 10 MiB an SDK stdio client buffers.
test.each(STDIO_MATRIX)(
  'a workflow tool with a 7 MiB output over stdio stays within maxTraceBytes: $label',
  async ({ line, transport }) => {
    const client = await line.connectStdio(path.join(__dirname, 'bulky-server.js'), { transport });
    try {
      const result = await client.callTool({ name: 'bulky', arguments: { size: String(7 * 1024 * 1024) } });
      expect(bytes(result)).toBeLessThanOrEqual(DEFAULT_MAX_TRACE_BYTES);
      expect(result.structuredContent).toMatchObject({ status: 'completed', truncated: { outputs: ['produced'] } });
      expect(result.content).toContainEqual({ type: 'text', text: 'Result of finish:\nfinished fine' });
    } finally {
      await client.close();
    }
  },
);
