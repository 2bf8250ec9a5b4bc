import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, fromStep, promptArg } from '@mcpflow/decorators';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { ExecutionMeta, StepEvent, WorkflowServingOptions } from '@mcpflow/core';
import { MATRIX, messageText, type Line } from '../helpers/lines';

@Workflow({ name: 'dashboard', description: 'Build a project dashboard', arguments: { project: z.string() } })
class Dashboard {
  @Step({ tool: 'issues', parallel: true, args: { project: promptArg('project') } })
  @Bind('issues')
  issues!: { open: number };

  @Step({ tool: 'pulls', parallel: true, args: { project: promptArg('project') } })
  @Bind('pulls')
  pulls!: { open: number };

  @Step({ tool: 'builds', parallel: true, args: { project: promptArg('project') }, optional: true })
  @Bind('builds')
  builds!: { green: boolean };

  @Step({ tool: 'render', args: { issues: fromStep('issues'), pulls: fromStep('pulls') } })
  rendered!: unknown;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });

/** `stopsAfter`: once its signal aborts, the tool takes this long to stop (it cleans up). */
type Behaviour = { latency: number; fail?: 'throw' | 'isError'; stopsAfter?: number };
type Name = 'issues' | 'pulls' | 'builds';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/**
 * Three tools that start together; each waits `latency` ms once all three have started and, when
 * `finishOrder` is given, until the one before it in that order has finished, so the order they
 * finish in does not depend on the machine's load.
 */
function dashboardServer(line: Line, behaviour: Record<Name, Behaviour>, finishOrder: Name[] = [], options?: WorkflowServingOptions) {
  const events: string[] = [];
  const aborted: string[] = [];
  const ended = { issues: deferred(), pulls: deferred(), builds: deferred() };
  const allStarted = deferred();
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'dashboard', version: '1.0.0' }, options);
    for (const name of ['issues', 'pulls', 'builds'] as const) {
      server.registerTool(name, { inputSchema: { project: z.string() } }, async (_args, context) => {
        const signal = line.signalOf(context);
        events.push(`start ${name}`);
        let done = false;
        signal.addEventListener('abort', () => !done && aborted.push(name));
        if (events.filter((event) => event.startsWith('start')).length === 3) allStarted.resolve();
        await allStarted.promise;
        const before = finishOrder[finishOrder.indexOf(name) - 1];
        if (before) await ended[before].promise;
        const { latency, fail, stopsAfter } = behaviour[name];
        try {
          await sleep(latency, signal);
        } catch (error) {
          if (stopsAfter === undefined) throw error;
          await new Promise((resolve) => setTimeout(resolve, stopsAfter));
          events.push(`stopped ${name}`);
          throw error;
        } finally {
          done = true;
          ended[name].resolve();
        }
        events.push(`end ${name}`);
        if (fail === 'throw') throw new Error(`${name} service unreachable`);
        if (fail === 'isError') return { content: [{ type: 'text', text: `${name} quota exceeded` }], isError: true };
        const value = name === 'builds' ? { green: true } : { open: name.length };
        return { content: [{ type: 'text', text: JSON.stringify(value) }] };
      });
    }
    server.registerTool(
      'render',
      { inputSchema: { issues: z.object({ open: z.number() }), pulls: z.object({ open: z.number() }) } },
      async ({ issues, pulls }) => {
        events.push('render');
        return { content: [{ type: 'text', text: `${issues.open} issues, ${pulls.open} pulls` }] };
      },
    );
    return server.use(Dashboard);
  };
  return { factory, events, aborted };
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

describe.each(MATRIX)('parallel groups: $label', ({ line, transport }) => {
  test('steps start together; the trace keeps declaration order whatever order they finish in', async () => {
    const { factory, events } = dashboardServer(line, { issues: { latency: 5 }, pulls: { latency: 5 }, builds: { latency: 5 } }, [
      'pulls',
      'builds',
      'issues',
    ]);
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'dashboard', arguments: { project: 'mcpflow' } });
    expect(events).toEqual(['start issues', 'start pulls', 'start builds', 'end pulls', 'end builds', 'end issues', 'render']);
    expect(result.messages.map(messageText)).toEqual([
      'Build a project dashboard\nArguments:\n- project: mcpflow',
      'Plan:\n1. issues: call tool issues\n2. pulls: call tool pulls\n3. builds: call tool builds\n4. rendered: call tool render',
      'Calling tool issues with arguments: {"project":"mcpflow"}',
      'Result of issues:\n{"open":6}',
      'Calling tool pulls with arguments: {"project":"mcpflow"}',
      'Result of pulls:\n{"open":5}',
      'Calling tool builds with arguments: {"project":"mcpflow"}',
      'Result of builds:\n{"green":true}',
      'Calling tool render with arguments: {"issues":{"open":6},"pulls":{"open":5}}',
      'Result of render:\n6 issues, 5 pulls',
    ]);
    expect(meta(result)).toEqual({
      status: 'completed',
      steps: [
        { name: 'issues', status: 'completed' },
        { name: 'pulls', status: 'completed' },
        { name: 'builds', status: 'completed' },
        { name: 'rendered', status: 'completed' },
      ],
    });
    await client.close();
  });

  test('a failing step cancels the rest of its group, which settles before the run stops at the failed step', async () => {
    const { factory, events, aborted } = dashboardServer(line, {
      issues: { latency: 10_000 },
      pulls: { latency: 5, fail: 'throw' },
      builds: { latency: 10_000 },
    });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'dashboard', arguments: { project: 'mcpflow' } });
    expect(aborted.sort()).toEqual(['builds', 'issues']);
    expect(events).toEqual(['start issues', 'start pulls', 'start builds', 'end pulls']);
    expect(result.messages.map(messageText).slice(2)).toEqual([
      'Calling tool issues with arguments: {"project":"mcpflow"}',
      'Calling tool pulls with arguments: {"project":"mcpflow"}',
      'Calling tool builds with arguments: {"project":"mcpflow"}',
      "Step 'pulls' failed: tool pulls threw: pulls service unreachable. The workflow stopped here.",
    ]);
    expect(meta(result)).toEqual({
      status: 'failed',
      stoppedAt: 'pulls',
      reason: 'tool pulls threw: pulls service unreachable',
      steps: [
        { name: 'issues', status: 'cancelled', reason: "cancelled because step 'pulls' of its parallel group failed" },
        { name: 'pulls', status: 'failed' },
        { name: 'builds', status: 'cancelled', reason: "cancelled because step 'pulls' of its parallel group failed" },
        { name: 'rendered', status: 'skipped' },
      ],
    });
    await client.close();
  });

  test('a cancelled sibling is stopped, not left running: the run ends once each has returned from its tool', async () => {
    const { factory, events } = dashboardServer(line, {
      issues: { latency: 10_000, stopsAfter: 100 },
      pulls: { latency: 5, fail: 'throw' },
      builds: { latency: 10_000, stopsAfter: 100 },
    });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'dashboard', arguments: { project: 'mcpflow' } });
    // What the run reports as cancelled had really stopped when the answer came.
    expect(events.slice(4).sort()).toEqual(['stopped builds', 'stopped issues']);
    expect(meta(result).steps.map((step) => step.status)).toEqual(['cancelled', 'failed', 'cancelled', 'skipped']);
    await client.close();
  });

  test('an optional step of the group fails alone: its siblings finish and the run goes on without its binding', async () => {
    const { factory, events, aborted } = dashboardServer(
      line,
      { issues: { latency: 5 }, pulls: { latency: 5 }, builds: { latency: 5, fail: 'isError' } },
      ['builds', 'pulls', 'issues'],
    );
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'dashboard', arguments: { project: 'mcpflow' } });
    expect(aborted).toEqual([]);
    expect(events.at(-1)).toBe('render');
    expect(result.messages.map(messageText).slice(6, 9)).toEqual([
      'Calling tool builds with arguments: {"project":"mcpflow"}',
      "Step 'builds' failed: tool builds returned an error: builds quota exceeded. It is optional, so the workflow goes on without it.",
      'Calling tool render with arguments: {"issues":{"open":6},"pulls":{"open":5}}',
    ]);
    expect(meta(result)).toEqual({
      status: 'completed',
      steps: [
        { name: 'issues', status: 'completed' },
        { name: 'pulls', status: 'completed' },
        { name: 'builds', status: 'failed', reason: 'tool builds returned an error: builds quota exceeded' },
        { name: 'rendered', status: 'completed' },
      ],
    });
    await client.close();
  });

  test('inside a group, onStep sees each step start and end, and progress reports each end once, always increasing', async () => {
    const events: StepEvent[] = [];
    const { factory } = dashboardServer(
      line,
      { issues: { latency: 5 }, pulls: { latency: 5 }, builds: { latency: 5 } },
      ['builds', 'issues', 'pulls'],
      {
        onStep: (event) => void events.push(event),
      },
    );
    const client = await line.connect(factory, { transport });
    const progress: Progress[] = [];
    await client.getPrompt({ name: 'dashboard', arguments: { project: 'mcpflow' } }, { onprogress: (update) => progress.push(update) });
    expect(events.map((event) => `${event.phase} ${event.step}`)).toEqual([
      'start issues',
      'start pulls',
      'start builds',
      'end builds',
      'end issues',
      'end pulls',
      'start rendered',
      'end rendered',
    ]);
    expect(progress).toEqual([
      { progress: 1, total: 4, message: 'Finished step 3 of 4: builds' },
      { progress: 2, total: 4, message: 'Finished step 1 of 4: issues' },
      { progress: 3, total: 4, message: 'Finished step 2 of 4: pulls' },
      { progress: 3.5, total: 4, message: 'Started step 4 of 4: rendered' },
      { progress: 4, total: 4, message: 'Finished step 4 of 4: rendered' },
    ]);
    await client.close();
  });

  test('cancelling the request mid-group aborts every running step of the group, and nothing after it starts', async () => {
    const { factory, events, aborted } = dashboardServer(line, {
      issues: { latency: 10_000 },
      pulls: { latency: 10_000 },
      builds: { latency: 10_000 },
    });
    const client = await line.connect(factory, { transport });
    const controller = new AbortController();
    const pending = client.getPrompt({ name: 'dashboard', arguments: { project: 'mcpflow' } }, { signal: controller.signal });
    while (events.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(aborted.sort()).toEqual(['builds', 'issues', 'pulls']);
    expect(events).toEqual(['start issues', 'start pulls', 'start builds']);
    await client.close();
  });
});
