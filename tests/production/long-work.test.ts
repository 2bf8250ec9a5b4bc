import 'reflect-metadata';
import { z } from 'zod';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { Bind, Step, Workflow, constant, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, RunEndEvent, StepEvent, WorkflowServingOptions } from '@mcpflow/core';
import { MATRIX, type Line } from '../helpers/lines';

@Workflow({ name: 'batch', arguments: { job: z.string() } })
class Batch {
  @Step({ tool: 'prepare', args: { job: promptArg('job') } })
  @Bind('prepared')
  prepared!: unknown;

  @Step({ tool: 'crunch', args: { job: promptArg('job') }, timeoutMs: 200 })
  @Bind('crunched')
  crunched!: unknown;

  @Step({ tool: 'publish', args: { job: promptArg('job') } })
  published!: unknown;
}

/** Batch servers (one per connection, or per request when stateless) sharing their call counts. */
function batchServer(line: Line, crunch: (signal: AbortSignal) => Promise<string>, options?: WorkflowServingOptions) {
  const calls = { prepare: 0, crunch: 0, publish: 0 };
  const aborted: boolean[] = [];
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'batch', version: '1.0.0' }, options);
    server.registerTool('prepare', { inputSchema: { job: z.string() } }, async () => {
      calls.prepare += 1;
      return { content: [{ type: 'text', text: 'ready' }] };
    });
    server.registerTool('crunch', { inputSchema: { job: z.string() } }, async (_args, context) => {
      calls.crunch += 1;
      const signal = line.signalOf(context);
      signal.addEventListener('abort', () => aborted.push(true));
      return { content: [{ type: 'text', text: await crunch(signal) }] };
    });
    server.registerTool('publish', { inputSchema: { job: z.string() } }, async () => {
      calls.publish += 1;
      return { content: [{ type: 'text', text: 'published' }] };
    });
    return server.use(Batch);
  };
  return { factory, calls, aborted };
}

const hang = (signal: AbortSignal) =>
  new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

describe.each(MATRIX)('long work: $label', ({ line, transport }) => {
  test('progress notifications arrive in order, as each step starts and ends, with total = steps', async () => {
    const { factory } = batchServer(line, async () => 'done');
    const client = await line.connect(factory, { transport });
    const progress: Progress[] = [];
    await client.getPrompt({ name: 'batch', arguments: { job: 'j' } }, { onprogress: (update) => progress.push(update) });
    expect(progress).toEqual([
      { progress: 0.5, total: 3, message: 'Started step 1 of 3: prepared' },
      { progress: 1, total: 3, message: 'Finished step 1 of 3: prepared' },
      { progress: 1.5, total: 3, message: 'Started step 2 of 3: crunched' },
      { progress: 2, total: 3, message: 'Finished step 2 of 3: crunched' },
      { progress: 2.5, total: 3, message: 'Started step 3 of 3: published' },
      { progress: 3, total: 3, message: 'Finished step 3 of 3: published' },
    ]);
    await client.close();
  });

  test('cancelling mid-workflow aborts the running tool, starts no later step, and the server keeps serving', async () => {
    let started!: () => void;
    const crunchStarted = new Promise<void>((resolve) => (started = resolve));
    const { factory, calls, aborted } = batchServer(line, (signal) => {
      started();
      return hang(signal);
    });
    const client = await line.connect(factory, { transport });
    const controller = new AbortController();
    const pending = client.getPrompt({ name: 'batch', arguments: { job: 'j' } }, { signal: controller.signal });
    await crunchStarted;
    controller.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(aborted).toEqual([true]);
    expect(calls).toEqual({ prepare: 1, crunch: 1, publish: 0 });
    expect((await client.listPrompts()).prompts).toHaveLength(1);
    await client.close();
  });

  test('a step that exceeds timeoutMs stops the workflow, saying which step timed out after how long', async () => {
    const { factory, calls, aborted } = batchServer(line, hang);
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'batch', arguments: { job: 'j' } });
    expect(result.messages.at(-1)?.content).toEqual({
      type: 'text',
      text: "Step 'crunched' failed: tool crunch timed out after 200 ms. The workflow stopped here.",
    });
    expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'crunched', reason: 'tool crunch timed out after 200 ms' });
    expect(aborted).toEqual([true]);
    expect(calls.publish).toBe(0);
    await client.close();
  });

  describe('retry', () => {
    function flaky(failures: number, attempts: number) {
      @Workflow({ name: 'flaky' })
      class Flaky {
        @Step({ tool: 'unstable', retry: { attempts, backoffMs: 5 } })
        result!: unknown;
      }
      let calls = 0;
      const factory = () => {
        const server = new line.WorkflowServer({ name: 'flaky', version: '1.0.0' });
        server.registerTool('unstable', {}, async () => {
          calls += 1;
          if (calls <= failures) return { content: [{ type: 'text', text: `failure ${calls}` }], isError: true };
          return { content: [{ type: 'text', text: `ok after ${calls}` }] };
        });
        return server.use(Flaky);
      };
      return { factory, calls: () => calls };
    }

    test('a step is tried again until it succeeds within its attempts', async () => {
      const { factory, calls } = flaky(2, 3);
      const client = await line.connect(factory, { transport });
      const result = await client.getPrompt({ name: 'flaky' });
      expect(result.messages.at(-1)?.content).toEqual({ type: 'text', text: 'Result of unstable:\nok after 3' });
      expect(calls()).toBe(3);
      await client.close();
    });

    test('after the last attempt the step fails with the last error', async () => {
      const { factory, calls } = flaky(5, 2);
      const client = await line.connect(factory, { transport });
      const result = await client.getPrompt({ name: 'flaky' });
      expect(meta(result).reason).toBe('tool unstable returned an error: failure 2');
      expect(calls()).toBe(2);
      await client.close();
    });
  });

  test('a sensitive value never appears in the result, though the tool receives it', async () => {
    const secret = 'sk-live-"quoted"-9f8e7d';
    @Workflow({ name: 'deploy', arguments: { api_key: z.string(), target: z.string() }, sensitiveArguments: ['api_key'] })
    class Deploy {
      @Step({
        tool: 'deploy',
        args: { key: promptArg('api_key'), target: promptArg('target'), pin: constant('4321') },
        sensitiveArgs: ['pin'],
        guidance: 'Deploying to {target} with {api_key}',
      })
      @Bind('deployed')
      deployed!: unknown;
    }
    const received: unknown[] = [];
    const ends: RunEndEvent[] = [];
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'deploy', version: '1.0.0' }, { onRunEnd: (event) => void ends.push(event) });
        server.registerTool('deploy', { inputSchema: { key: z.string(), target: z.string(), pin: z.string() } }, async (args) => {
          received.push(args);
          // A careless tool echoes what it was given.
          return { content: [{ type: 'text', text: `deployed with ${args.key} and pin ${args.pin}` }], structuredContent: { echo: args } };
        });
        return server.use(Deploy);
      },
      { transport },
    );
    const result = await client.getPrompt({ name: 'deploy', arguments: { api_key: secret, target: 'prod' } });
    expect(received).toEqual([{ key: secret, target: 'prod', pin: '4321' }]);
    const everything = JSON.stringify(result);
    expect(everything).not.toContain('sk-live');
    expect(everything).not.toContain('4321');
    // What a hook sees of the bindings is redacted like the trace.
    expect(ends).toEqual([
      {
        workflow: 'deploy',
        status: 'completed',
        outputs: { deployed: { echo: { key: '[redacted]', target: 'prod', pin: '[redacted]' } } },
      },
    ]);
    expect(result.messages[0].content).toEqual({
      type: 'text',
      text: 'Run the deploy workflow.\nArguments:\n- api_key: [redacted]\n- target: prod',
    });
    expect(result.messages[2].content).toEqual({ type: 'text', text: 'Deploying to prod with [redacted]' });
    expect(result.messages.at(-1)?.content).toEqual({
      type: 'text',
      text: 'Result of deploy:\ndeployed with [redacted] and pin [redacted]',
    });
    await client.close();
  });

  test('onStep sees each step start and end, with duration and outcome, and changes nothing in the trace', async () => {
    const events: StepEvent[] = [];
    const observed = batchServer(line, async () => 'done', { onStep: (event) => void events.push(event) });
    const plain = batchServer(line, async () => 'done');
    const [a, b] = await Promise.all([line.connect(observed.factory, { transport }), line.connect(plain.factory, { transport })]);
    const [withHook, without] = await Promise.all([
      a.getPrompt({ name: 'batch', arguments: { job: 'j' } }),
      b.getPrompt({ name: 'batch', arguments: { job: 'j' } }),
    ]);
    expect(withHook).toEqual(without);
    expect(events.map((event) => `${event.phase}:${event.step}${event.phase === 'end' ? `:${event.status}` : ''}`)).toEqual([
      'start:prepared',
      'end:prepared:completed',
      'start:crunched',
      'end:crunched:completed',
      'start:published',
      'end:published:completed',
    ]);
    for (const event of events) if (event.phase === 'end') expect(event.durationMs).toBeGreaterThanOrEqual(0);
    expect(events[0]).toEqual({ phase: 'start', workflow: 'batch', step: 'prepared', index: 0, total: 3 });
    await Promise.all([a.close(), b.close()]);
  });

  test('onRunEnd sees, once, how the run ended and what each completed step bound, and changes nothing in the trace', async () => {
    const ends: RunEndEvent[] = [];
    const observed = batchServer(line, async () => 'done', { onRunEnd: (event) => void ends.push(event) });
    const plain = batchServer(line, async () => 'done');
    const [a, b] = await Promise.all([line.connect(observed.factory, { transport }), line.connect(plain.factory, { transport })]);
    const [withHook, without] = await Promise.all([
      a.getPrompt({ name: 'batch', arguments: { job: 'j' } }),
      b.getPrompt({ name: 'batch', arguments: { job: 'j' } }),
    ]);
    expect(withHook).toEqual(without);
    expect(ends).toEqual([{ workflow: 'batch', status: 'completed', outputs: { prepared: 'ready', crunched: 'done' } }]);

    const failing = batchServer(
      line,
      async () => {
        throw new Error('out of memory');
      },
      { onRunEnd: (event) => void ends.push(event) },
    );
    const c = await line.connect(failing.factory, { transport });
    await c.getPrompt({ name: 'batch', arguments: { job: 'j' } });
    expect(ends[1]).toEqual({ workflow: 'batch', status: 'failed', outputs: { prepared: 'ready' } });
    await Promise.all([a.close(), b.close(), c.close()]);
  });
});
