import 'reflect-metadata';
import { z } from 'zod';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Bind, Step, TemplateBinding, Workflow, askUser, equals, field, item, promptArg } from '@mcpflow/decorators';
import { runWorkflow } from '@mcpflow/testing';
import type { ExecutionMeta, WorkflowServingOptions } from '@mcpflow/core';
import { MATRIX, type Line, type TestServer } from '../helpers/lines';
import { childrenOf, recordSpans, runSpan, spansWhen, type ReadableSpan } from '../helpers/tracing';

/**
 * DESIGN §2.11 through real clients of both SDK lines (in memory, and 2.x's stateless 2026-07-28
 * serving), with a real tracer provider: each run is a SERVER span `prompts/get {workflow}`, each
 * step a direct child named by the MCP conventions, and how the run and its steps ended is on them.
 */
const recorded = recordSpans();

@Workflow({ name: 'tour', description: 'Tour a game', arguments: { player: z.string(), mode: z.string().optional() } })
class Tour {
  @Step({ tool: 'get_progress', args: { player: promptArg('player') } })
  @Bind('progress')
  progress!: { game_id: string; rooms: string[] };

  @Step({ resource: 'if://walkthrough/{game_id}' })
  @TemplateBinding('game_id', field('progress', 'game_id'))
  @Bind('walkthrough')
  walkthrough!: string;

  @Step({ tool: 'get_hints', args: { game: field('progress', 'game_id') }, parallel: true })
  @Bind('hints')
  hints!: unknown;

  @Step({ tool: 'get_map', args: { game: field('progress', 'game_id') }, parallel: true })
  @Bind('map')
  map!: unknown;

  @Step({ tool: 'describe_room', args: { room: item() }, forEach: field('progress', 'rooms'), concurrency: 2 })
  @Bind('rooms')
  rooms!: unknown[];

  @Step({ tool: 'get_hints', args: { game: field('progress', 'game_id') }, when: equals(promptArg('mode'), 'cheat') })
  cheat!: unknown;
}

@Workflow({ name: 'peek', arguments: { player: z.string() }, expose: { prompt: false, tool: { name: 'peek_progress' } } })
class Peek {
  @Step({ tool: 'get_progress', args: { player: promptArg('player') } })
  @Bind('progress')
  progress!: { game_id: string; rooms: string[] };
}

class RateLimitError extends Error {}

@Workflow({ name: 'fragile', arguments: { player: z.string() } })
class Fragile {
  @Step({ tool: 'check', optional: true })
  checked!: unknown;

  @Step({ tool: 'fetch_save', args: { player: promptArg('player') } })
  save!: unknown;

  @Step({ tool: 'get_map', args: { game: promptArg('player') } })
  map!: unknown;
}

@Workflow({ name: 'unfinished', arguments: { player: z.string() } })
class Unfinished {
  @Step({ tool: 'get_progress', args: { player: promptArg('player') } })
  @Bind('progress')
  progress!: unknown;

  @Step({ tool: 'describe_room' })
  room!: unknown;
}

/** A server with the tools and the resource the workflows above use; `hooks` sees inside the tools. */
function tourServer(
  line: Line,
  options: WorkflowServingOptions = {},
  hooks: { describeRoom?: (signal: AbortSignal) => Promise<void> } = {},
) {
  return (): TestServer => {
    const server = new line.WorkflowServer({ name: 'games', version: '1.0.0' }, options);
    const json = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });
    server.registerTool('get_progress', { inputSchema: { player: z.string() } }, async () =>
      json({ game_id: 'zork1', rooms: ['West of House', 'Attic', 'Cellar'] }),
    );
    server.registerTool('get_hints', { inputSchema: { game: z.string() } }, async () => json({ hints: ['look up'] }));
    server.registerTool('get_map', { inputSchema: { game: z.string() } }, async () => json({ map: '…' }));
    server.registerTool('describe_room', { inputSchema: { room: z.string() } }, async ({ room }, context) => {
      await hooks.describeRoom?.(line.signalOf(context));
      return json({ room, exits: 2 });
    });
    server.registerTool('check', {}, async () => ({ content: [{ type: 'text', text: 'checker offline' }], isError: true }));
    server.registerTool('fetch_save', { inputSchema: { player: z.string() } }, async () => {
      throw new RateLimitError('save service: too many requests');
    });
    server.registerResource(
      'walkthrough',
      new line.ResourceTemplate('if://walkthrough/{game_id}', { list: undefined }),
      { mimeType: 'text/markdown' },
      async (uri) => ({ contents: [{ uri: uri.href, text: '# Zork walkthrough' }] }),
    );
    return server.use(Tour, Fragile, Unfinished, Peek);
  };
}

const execution = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;
const stepName = (span: ReadableSpan) => span.attributes['mcpflow.step.name'];

describe.each(MATRIX.filter((entry) => entry.transport !== 'http'))('spans: $label', ({ line, transport }) => {
  test('a completed run is one SERVER span with a direct child per step, named and described by the MCP conventions', async () => {
    const client = await line.connect(tourServer(line), { transport });
    const result = await client.getPrompt({ name: 'tour', arguments: { player: 'ada' } });
    await client.close();
    expect(execution(result).status).toBe('completed');

    const spans = recorded.spans();
    const run = runSpan(spans, 'prompts/get tour');
    expect(run.kind).toBe(SpanKind.SERVER);
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toEqual({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'tour',
      'gen_ai.operation.name': 'invoke_workflow',
      'mcpflow.workflow.name': 'tour',
      'mcpflow.run.round': 1,
      'mcpflow.execution.status': 'completed',
    });
    expect(run.status).toEqual({ code: SpanStatusCode.UNSET });

    const steps = childrenOf(spans, run);
    // Every span of the run is the run span or a direct child of it: a group or a loop adds no level.
    expect(spans.filter((span) => span !== run && !steps.includes(span))).toEqual([]);
    expect(steps.every((span) => span.kind === SpanKind.INTERNAL && span.spanContext().traceId === run.spanContext().traceId)).toBe(true);
    const byStep = (name: string) => steps.filter((span) => stepName(span) === name);
    expect(byStep('progress').map((span) => [span.name, span.attributes])).toEqual([
      [
        'execute_tool get_progress',
        {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': 'get_progress',
          'mcpflow.step.name': 'progress',
          'mcpflow.step.index': 0,
          'mcpflow.step.status': 'completed',
        },
      ],
    ]);
    // The template as written, never the URI filled in (if://walkthrough/zork1).
    expect(byStep('walkthrough').map((span) => [span.name, span.attributes])).toEqual([
      [
        'resources/read if://walkthrough/{game_id}',
        {
          'mcp.method.name': 'resources/read',
          'mcpflow.resource.template': 'if://walkthrough/{game_id}',
          'mcpflow.step.name': 'walkthrough',
          'mcpflow.step.index': 1,
          'mcpflow.step.status': 'completed',
        },
      ],
    ]);
    for (const name of ['hints', 'map'])
      expect(byStep(name).map((span) => span.attributes)).toEqual([
        expect.objectContaining({ 'mcpflow.step.group.first': 'hints', 'mcpflow.step.group.size': 2, 'mcpflow.step.status': 'completed' }),
      ]);
    // One span per element of the forEach step, each its own tool call.
    expect(
      byStep('rooms')
        .map((span) => [span.name, span.attributes['mcpflow.step.iteration.index'], span.attributes['mcpflow.step.iteration.count']])
        .sort(),
    ).toEqual([
      ['execute_tool describe_room', 0, 3],
      ['execute_tool describe_room', 1, 3],
      ['execute_tool describe_room', 2, 3],
    ]);
    expect(byStep('cheat').map((span) => span.attributes['mcpflow.step.status'])).toEqual(['skipped']);
    expect(steps).toHaveLength(8);
  });

  test("the caller's traceparent in params._meta is the run's parent; a malformed one starts a new trace", async () => {
    const client = await line.connect(tourServer(line), { transport });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await client.getPrompt({
      name: 'tour',
      arguments: { player: 'ada' },
      _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01`, tracestate: 'congo=t61rcWkgMzE' },
    });
    const run = runSpan(recorded.spans(), 'prompts/get tour');
    expect(run.spanContext().traceId).toBe(traceId);
    expect(run.parentSpanContext).toMatchObject({ traceId, spanId: '00f067aa0ba902b7', isRemote: true });
    expect(run.spanContext().traceState?.serialize()).toBe('congo=t61rcWkgMzE');
    expect(childrenOf(recorded.spans(), run)).toHaveLength(8);

    for (const traceparent of ['00-not-a-trace-01', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`, 42]) {
      const before = recorded.spans().length;
      await client.getPrompt({ name: 'tour', arguments: { player: 'ada' }, _meta: { traceparent } as never });
      const latest = runSpan(recorded.spans().slice(before), 'prompts/get tour');
      expect(latest.parentSpanContext).toBeUndefined();
      expect(latest.spanContext().traceId).not.toBe(traceId);
    }
    await client.close();
  });

  test('a failed run: the failing step and the run are ERROR with error.type, and a value-free message (the reason stays in _meta)', async () => {
    const client = await line.connect(tourServer(line), { transport });
    const result = await client.getPrompt({ name: 'fragile', arguments: { player: 'ada' } });
    await client.close();
    const meta = execution(result);
    expect(meta).toMatchObject({ status: 'failed', stoppedAt: 'save', reason: 'tool fetch_save threw: save service: too many requests' });

    const run = runSpan(recorded.spans(), 'prompts/get fragile');
    expect(run.attributes).toMatchObject({
      'mcpflow.execution.status': 'failed',
      'mcpflow.execution.stopped_at': 'save',
      'error.type': 'RateLimitError',
    });
    // DESIGN §2.11: the step, the error type and what failed; never the tool's error text.
    const saveFailed = 'step save: RateLimitError, tool fetch_save threw';
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: saveFailed });
    const [checked, save, ...rest] = childrenOf(recorded.spans(), run);
    expect(rest).toEqual([]); // the step after the failure never ran
    // An optional step that failed: the run goes on, the step's span says how it failed.
    expect(checked.attributes).toMatchObject({ 'mcpflow.step.status': 'failed', 'error.type': 'tool_error' });
    expect(checked.status).toEqual({ code: SpanStatusCode.ERROR, message: 'step checked: tool_error, tool check returned an error' });
    expect(save.attributes).toMatchObject({ 'mcpflow.step.status': 'failed', 'error.type': 'RateLimitError' });
    expect(save.status).toEqual({ code: SpanStatusCode.ERROR, message: saveFailed });
    // No exception event with the raw error and its stack either.
    expect([run, checked, save].flatMap((span) => span.events)).toEqual([]);
  });

  test('a handed-off run: the step that could not run and the run say handoff, and neither is an error', async () => {
    const client = await line.connect(tourServer(line), { transport });
    const result = await client.getPrompt({ name: 'unfinished', arguments: { player: 'ada' } });
    await client.close();
    expect(execution(result)).toMatchObject({ status: 'handoff', stoppedAt: 'room' });
    const run = runSpan(recorded.spans(), 'prompts/get unfinished');
    expect(run.attributes).toMatchObject({ 'mcpflow.execution.status': 'handoff', 'mcpflow.execution.stopped_at': 'room' });
    expect(run.status).toEqual({ code: SpanStatusCode.UNSET });
    expect(childrenOf(recorded.spans(), run).map((span) => [span.name, span.attributes['mcpflow.step.status'], span.status.code])).toEqual([
      ['execute_tool get_progress', 'completed', SpanStatusCode.UNSET],
      ['execute_tool describe_room', 'handoff', SpanStatusCode.UNSET],
    ]);
  });

  test("a tool handler's own spans nest under its step's span (the step span is active around its work)", async () => {
    const seen: string[] = [];
    const client = await line.connect(
      tourServer(
        line,
        {},
        {
          describeRoom: async () => {
            const own = trace.getTracer('the-tool').startSpan('db.query');
            own.end();
            seen.push(trace.getActiveSpan()?.spanContext().spanId ?? 'none');
          },
        },
      ),
      { transport },
    );
    await client.getPrompt({ name: 'tour', arguments: { player: 'ada' } });
    await client.close();
    const spans = recorded.spans();
    const rooms = childrenOf(spans, runSpan(spans, 'prompts/get tour')).filter((span) => stepName(span) === 'rooms');
    expect(seen.sort()).toEqual(rooms.map((span) => span.spanContext().spanId).sort());
    for (const room of rooms) expect(childrenOf(spans, room).map((span) => span.name)).toEqual(['db.query']);
  });

  test('a telemetry or logger option that would be misread throws when the server is made, naming the option', () => {
    const make = (options: Record<string, unknown>) => () => new line.WorkflowServer({ name: 'games', version: '1.0.0' }, options);
    expect(make({ telemetry: 'false' })).toThrow(
      expect.objectContaining({
        name: 'InvalidServerOptionError',
        option: 'telemetry',
        message: 'WorkflowServer option telemetry must be true or false (got "false").',
      }),
    );
    expect(make({ logger: { info: () => undefined } })).toThrow(
      expect.objectContaining({
        option: 'logger',
        message:
          'WorkflowServer option logger must be a function that takes each line, or an object with a debug(line) method such as console or a pino logger (got object).',
      }),
    );
    expect(make({ telemetry: true, logger: console })).not.toThrow();
  });

  test('a run through the tool face is a SERVER span `tools/call {tool}`, named by gen_ai.tool.name', async () => {
    const client = await line.connect(tourServer(line), { transport });
    const result = await client.callTool({ name: 'peek_progress', arguments: { player: 'ada' } });
    await client.close();
    expect(result.isError).toBeFalsy();

    const spans = recorded.spans();
    const run = runSpan(spans, 'tools/call peek_progress');
    expect(run.kind).toBe(SpanKind.SERVER);
    expect(run.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'peek_progress',
      'gen_ai.operation.name': 'execute_tool',
      'mcpflow.workflow.name': 'peek',
      'mcpflow.run.round': 1,
      'mcpflow.execution.status': 'completed',
    });
    expect(childrenOf(spans, run).map((span) => span.name)).toEqual(['execute_tool get_progress']);
  });

  test('telemetry: false records nothing', async () => {
    const client = await line.connect(tourServer(line, { telemetry: false }), { transport });
    const result = await client.getPrompt({ name: 'fragile', arguments: { player: 'ada' } });
    await client.getPrompt({
      name: 'tour',
      arguments: { player: 'ada' },
      _meta: { traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` },
    });
    await client.close();
    expect(execution(result).status).toBe('failed');
    expect(recorded.spans()).toEqual([]);
  });
});

describe.each(MATRIX.filter((entry) => entry.transport === 'memory'))('spans of a cancelled run: $label', ({ line, transport }) => {
  test('the step running when the client cancels and the run say cancelled', async () => {
    // Both elements the loop runs at once (concurrency 2) are in their tool when the client cancels.
    let started = 0;
    let bothStarted!: () => void;
    const running = new Promise<void>((resolve) => (bothStarted = resolve));
    const client = await line.connect(
      tourServer(
        line,
        {},
        {
          describeRoom: (signal) =>
            new Promise((_, reject) => {
              if (++started === 2) bothStarted();
              signal.addEventListener('abort', () => reject(new Error('aborted')));
            }),
        },
      ),
      { transport },
    );
    const controller = new AbortController();
    const pending = client.getPrompt({ name: 'tour', arguments: { player: 'ada' } }, { signal: controller.signal });
    await running;
    controller.abort('the user pressed stop');
    await expect(pending).rejects.toThrow();
    const spans = await spansWhen(recorded.spans, (all) => all.some((span) => span.kind === SpanKind.SERVER));
    await client.close();
    const run = runSpan(spans, 'prompts/get tour');
    expect(run.attributes).toMatchObject({ 'mcpflow.execution.status': 'cancelled', 'mcpflow.execution.stopped_at': 'rooms' });
    expect(run.status).toEqual({ code: SpanStatusCode.UNSET });
    const rooms = childrenOf(spans, run).filter((span) => stepName(span) === 'rooms');
    expect(rooms.map((span) => span.attributes['mcpflow.step.status'])).toEqual(['cancelled', 'cancelled']);
  });
});

@Workflow({ name: 'add_task', arguments: { task: z.string() } })
class AddTask {
  @Step({ tool: 'list_pages' })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: 'add',
    args: { page: askUser('Which page should {task} go on?', { choices: field('pages', 'names') }), task: promptArg('task') },
  })
  added!: unknown;
}

const ASKING = [
  { label: 'SDK 1.x, asked in place', sdk: 1, protocol: '2025-11-25' },
  { label: 'SDK 2.x, asked in place', sdk: 2, protocol: '2025-11-25' },
] as const;

describe('questions', () => {
  const stubs = { list_pages: () => ({ names: ['Inbox', 'Someday'] }), add: ({ page }: { page: string }) => ({ ok: true, page }) };

  test.each(ASKING)(
    '$label: each question put is an mcpflow.ask event of the run span, with its kind and key',
    async ({ sdk, protocol }) => {
      const run = await runWorkflow(AddTask, {
        arguments: { task: 'water plants' },
        tools: stubs,
        answers: { 'added/page': 'Someday' },
        sdk,
        protocol,
      });
      expect(run.status).toBe('completed');
      const span = runSpan(recorded.spans(), 'prompts/get add_task');
      expect(span.events.map((event) => [event.name, event.attributes])).toEqual([
        ['mcpflow.ask', { 'mcpflow.ask.kind': 'user', 'mcpflow.ask.key': 'added/page', 'mcpflow.step.name': 'added' }],
      ]);
      expect(span.attributes['mcpflow.execution.status']).toBe('completed');
    },
  );

  test('SDK 2.x, 2026-07-28: the paused round and the resumed one are two run spans of one trace, the second under the first', async () => {
    const run = await runWorkflow(AddTask, { arguments: { task: 'water plants' }, tools: stubs, answers: { 'added/page': 'Someday' } });
    expect(run.meta).toMatchObject({ status: 'completed', rounds: 1 });
    const spans = recorded.spans();
    const [first, second] = spans
      .filter((span) => span.kind === SpanKind.SERVER)
      .sort((a, b) => Number(a.attributes['mcpflow.run.round']) - Number(b.attributes['mcpflow.run.round']));
    expect([first.attributes, second.attributes]).toEqual([
      expect.objectContaining({ 'mcpflow.run.round': 1, 'mcpflow.execution.status': 'paused' }),
      expect.objectContaining({ 'mcpflow.run.round': 2, 'mcpflow.execution.status': 'completed' }),
    ]);
    expect(first.events.map((event) => event.attributes?.['mcpflow.ask.key'])).toEqual(['added/page']);
    expect(second.spanContext().traceId).toBe(first.spanContext().traceId);
    expect(second.parentSpanContext?.spanId).toBe(first.spanContext().spanId);
    // The retry carried no trace context of its own: nothing to link.
    expect(second.links).toEqual([]);
    // Under the first: its own step, and the round that resumed it.
    expect(childrenOf(spans, first).map((span) => span.name)).toEqual(['execute_tool list_pages', 'prompts/get add_task']);
    expect(childrenOf(spans, second).map((span) => span.name)).toEqual(['execute_tool add']);
  });
});
