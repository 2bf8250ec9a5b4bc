import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, equals, field, fromStep, item, not, oneOf, present, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, StepEvent } from '@mcpflow/core';
import { MATRIX, messageText, type Line } from '../helpers/lines';

@Workflow({ name: 'release', description: 'Cut a release', arguments: { channel: z.string(), notes: z.string().optional() } })
class Release {
  @Step({ tool: 'changelog', optional: true })
  @Bind('changelog')
  changelog!: { entries: string[] };

  @Step({ tool: 'announce', when: present(fromStep('changelog')), args: { text: field('changelog', 'entries.0') } })
  announced!: unknown;

  @Step({ tool: 'apologise', when: not(present(fromStep('changelog'))) })
  apologised!: unknown;

  @Step({ tool: 'publish', when: oneOf(promptArg('channel'), ['stable', 'beta']), args: { channel: promptArg('channel') } })
  @Bind('published')
  published!: { version: string };

  @Step({ tool: 'notify', when: equals(field('published', 'version'), '2.0.0'), args: { notes: promptArg('notes') } })
  notified!: unknown;

  @Step({ tool: 'version', transform: (value: { version: string }) => value.version.split('.').map(Number) })
  @Bind('parts')
  parts!: number[];

  @Step({ tool: 'echo', args: { major: field('parts', '0') } })
  echoed!: unknown;
}

function releaseServer(line: Line, changelog: 'ok' | 'fail') {
  const called: string[] = [];
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'release', version: '1.0.0' });
    const tool = (name: string, input: Record<string, z.ZodType>, answer: (args: Record<string, unknown>) => unknown) =>
      server.registerTool(name, { inputSchema: input }, async (args: Record<string, unknown>) => {
        called.push(name);
        const value = answer(args);
        if (value instanceof Error) throw value;
        return { content: [{ type: 'text' as const, text: JSON.stringify(value) }] };
      });
    tool('changelog', {}, () => (changelog === 'ok' ? { entries: ['Faster builds'] } : new Error('changelog service down')));
    tool('announce', { text: z.string() }, ({ text }) => `announced ${text}`);
    tool('apologise', {}, () => 'no changelog this time');
    tool('publish', { channel: z.string() }, () => ({ version: '2.0.0' }));
    tool('notify', { notes: z.string().optional() }, () => 'notified');
    tool('version', {}, () => ({ version: '2.1.3' }));
    tool('echo', { major: z.number() }, ({ major }) => `major ${major}`);
    return server.use(Release);
  };
  return { factory, called };
}

function deferredStart(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

describe.each(MATRIX)('when, optional and transform: $label', ({ line, transport }) => {
  test('conditions pick the steps that run; a skipped step says why; transform shapes the bound value', async () => {
    const { factory, called } = releaseServer(line, 'ok');
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'release', arguments: { channel: 'nightly' } });
    expect(called).toEqual(['changelog', 'announce', 'version', 'echo']);
    expect(result.messages.map(messageText).slice(2)).toEqual([
      'Calling tool changelog with arguments: {}',
      'Result of changelog:\n{"entries":["Faster builds"]}',
      'Calling tool announce with arguments: {"text":"Faster builds"}',
      'Result of announce:\n"announced Faster builds"',
      "Skipped step 'apologised': when not(present(fromStep('changelog'))) is false.",
      `Skipped step 'published': when oneOf(promptArg('channel'), ["stable","beta"]) is false.`,
      `Skipped step 'notified': when equals(field('published', 'version'), "2.0.0") is false.`,
      'Calling tool version with arguments: {}',
      'Result of version:\n{"version":"2.1.3"}',
      'Calling tool echo with arguments: {"major":2}',
      'Result of echo:\n"major 2"',
    ]);
    expect(meta(result)).toEqual({
      status: 'completed',
      steps: [
        { name: 'changelog', status: 'completed' },
        { name: 'announced', status: 'completed' },
        { name: 'apologised', status: 'skipped', reason: "when not(present(fromStep('changelog'))) is false" },
        { name: 'published', status: 'skipped', reason: `when oneOf(promptArg('channel'), ["stable","beta"]) is false` },
        { name: 'notified', status: 'skipped', reason: `when equals(field('published', 'version'), "2.0.0") is false` },
        { name: 'parts', status: 'completed' },
        { name: 'echoed', status: 'completed' },
      ],
    });
    await client.close();
  });

  test('an optional step fails: the failure is traced, its binding is absent, and conditions on it branch', async () => {
    const { factory, called } = releaseServer(line, 'fail');
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'release', arguments: { channel: 'stable' } });
    expect(called).toEqual(['changelog', 'apologise', 'publish', 'notify', 'version', 'echo']);
    expect(result.messages.map(messageText).slice(2, 6)).toEqual([
      'Calling tool changelog with arguments: {}',
      "Step 'changelog' failed: tool changelog threw: changelog service down. It is optional, so the workflow goes on without it.",
      "Skipped step 'announced': when present(fromStep('changelog')) is false.",
      'Calling tool apologise with arguments: {}',
    ]);
    expect(meta(result).status).toBe('completed');
    expect(meta(result).steps.slice(0, 2)).toEqual([
      { name: 'changelog', status: 'failed', reason: 'tool changelog threw: changelog service down' },
      { name: 'announced', status: 'skipped', reason: "when present(fromStep('changelog')) is false" },
    ]);
    await client.close();
  });

  test("each step's end in progress names how it ended: Failed, Skipped or Finished", async () => {
    const { factory } = releaseServer(line, 'fail');
    const client = await line.connect(factory, { transport });
    const messages: string[] = [];
    await client.getPrompt(
      { name: 'release', arguments: { channel: 'nightly' } },
      { onprogress: (update: { message?: string }) => void messages.push(update.message ?? '') },
    );
    expect(messages.filter((message) => !message.startsWith('Started'))).toEqual([
      'Failed step 1 of 7: changelog',
      'Skipped step 2 of 7: announced',
      'Finished step 3 of 7: apologised',
      'Skipped step 4 of 7: published',
      'Skipped step 5 of 7: notified',
      'Finished step 6 of 7: parts',
      'Finished step 7 of 7: echoed',
    ]);
    await client.close();
  });

  test('a transform that throws fails its step like a tool error', async () => {
    @Workflow({ name: 'shaky' })
    class Shaky {
      @Step({
        tool: 'version',
        transform: () => {
          throw new Error('unexpected version format');
        },
      })
      @Bind('parts')
      parts!: number[];
    }
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'shaky', version: '1.0.0' });
      server.registerTool('version', {}, async () => ({ content: [{ type: 'text', text: '{"version":"x"}' }] }));
      return server.use(Shaky);
    };
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'shaky' });
    expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'parts', reason: 'its transform threw: unexpected version format' });
    await client.close();
  });

  describe('a transform runs under its step timeout and the request cancellation', () => {
    let transforming = deferredStart();
    @Workflow({ name: 'stuck' })
    class Stuck {
      @Step({
        tool: 'version',
        timeoutMs: 200,
        transform: () => {
          transforming.resolve();
          return new Promise<never>(() => {});
        },
      })
      @Bind('parts')
      parts!: number[];
    }
    function stuckServer(ends: StepEvent[]) {
      transforming = deferredStart();
      const factory = () => {
        const server = new line.WorkflowServer({ name: 'stuck', version: '1.0.0' }, { onStep: (event) => void ends.push(event) });
        server.registerTool('version', {}, async () => ({ content: [{ type: 'text', text: '{"version":"x"}' }] }));
        return server.use(Stuck);
      };
      return { factory, transforming: transforming.promise };
    }

    test('a transform that never settles fails its step at the timeout', async () => {
      const { factory } = stuckServer([]);
      const client = await line.connect(factory, { transport });
      const result = await client.getPrompt({ name: 'stuck' });
      expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'parts', reason: 'its transform timed out after 200 ms' });
      await client.close();
    });

    test('cancelling the request while a transform runs ends the step as cancelled at once', async () => {
      const events: StepEvent[] = [];
      const { factory, transforming: started } = stuckServer(events);
      const client = await line.connect(factory, { transport });
      const controller = new AbortController();
      const pending = client.getPrompt({ name: 'stuck' }, { signal: controller.signal });
      await started;
      controller.abort('user pressed stop');
      await expect(pending).rejects.toThrow();
      while (!events.some((event) => event.phase === 'end')) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(events.find((event) => event.phase === 'end')).toMatchObject({
        step: 'parts',
        status: 'cancelled',
        reason: 'the request was cancelled during its transform',
      });
      await client.close();
    });
  });

  test('timeoutMs applies to each iteration of a loop', async () => {
    @Workflow({ name: 'slow_loop' })
    class SlowLoop {
      @Step({ tool: 'list' })
      @Bind('ids')
      ids!: number[];

      @Step({ tool: 'fetch', forEach: fromStep('ids'), args: { id: item() }, timeoutMs: 100 })
      fetched!: unknown[];
    }
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'slow', version: '1.0.0' });
      server.registerTool('list', {}, async () => ({ content: [{ type: 'text', text: '[1,2]' }] }));
      server.registerTool('fetch', { inputSchema: { id: z.number() } }, async ({ id }, context) => {
        if (id === 2)
          await new Promise((_, reject) => line.signalOf(context).addEventListener('abort', () => reject(new Error('aborted'))));
        return { content: [{ type: 'text', text: `item ${id}` }] };
      });
      return server.use(SlowLoop);
    };
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'slow_loop' });
    expect(meta(result)).toMatchObject({
      status: 'failed',
      stoppedAt: 'fetched',
      reason: 'element 2 of 2: tool fetch timed out after 100 ms',
    });
    expect(meta(result).steps[1].iterations).toEqual({
      count: 2,
      completed: 1,
      skipped: 0,
      failed: 1,
      cancelled: 0,
      failures: [{ index: 1, status: 'failed', reason: 'tool fetch timed out after 100 ms' }],
    });
    await client.close();
  });
});
