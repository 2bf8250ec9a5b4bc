import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, promptArg } from '@mcpflow/decorators';
import { DEFAULT_STEP_TIMEOUT_MS, type ExecutionMeta, type WorkflowServingOptions } from '@mcpflow/core';
import { IN_MEMORY, type Line } from '../helpers/lines';

@Workflow({ name: 'wait_for', arguments: { ms: z.string() } })
class WaitFor {
  @Step({ tool: 'sleepy', args: { ms: promptArg('ms') } })
  slept!: unknown;
}

/** A tool that finishes after `ms` (never, for 'forever'), and records whether its signal was aborted. */
function sleepyServer(line: Line, options?: WorkflowServingOptions) {
  const aborted: boolean[] = [];
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'sleepy', version: '1.0.0' }, options);
    server.registerTool('sleepy', { inputSchema: { ms: z.string() } }, async ({ ms }, context) => {
      line.signalOf(context).addEventListener('abort', () => aborted.push(true));
      if (ms !== 'forever') await new Promise((resolve) => setTimeout(resolve, Number(ms)));
      else await new Promise(() => undefined);
      return { content: [{ type: 'text', text: `slept ${ms}` }] };
    });
    return server.use(WaitFor);
  };
  return { factory, aborted };
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

// Fake timers drive the clock: in memory, where no socket keeps time of its own.
describe.each(IN_MEMORY)('the default step timeout: $label', ({ line, transport }) => {
  test('a tool that hangs with no timeoutMs ends the trace at the server-wide default, well before the client gives up', async () => {
    expect(DEFAULT_STEP_TIMEOUT_MS).toBe(30_000);
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { factory, aborted } = sleepyServer(line);
      const client = await line.connect(factory, { transport });
      const pending = client.getPrompt({ name: 'wait_for', arguments: { ms: 'forever' } });
      await jest.advanceTimersByTimeAsync(DEFAULT_STEP_TIMEOUT_MS);
      const result = await pending;
      expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'slept', reason: 'tool sleepy timed out after 30000 ms' });
      expect(result.messages.at(-1)?.content).toEqual({
        type: 'text',
        text: "Step 'slept' failed: tool sleepy timed out after 30000 ms. The workflow stopped here.",
      });
      expect(aborted).toEqual([true]);
      await client.close();
    } finally {
      jest.useRealTimers();
    }
  });

  test('the default is configurable per server', async () => {
    const { factory } = sleepyServer(line, { defaultStepTimeoutMs: 50 });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'wait_for', arguments: { ms: 'forever' } });
    expect(meta(result).reason).toBe('tool sleepy timed out after 50 ms');
    await client.close();
  });

  test('and disabled only explicitly, with false', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { factory } = sleepyServer(line, { defaultStepTimeoutMs: false });
      const client = await line.connect(factory, { transport });
      const pending = client.getPrompt(
        { name: 'wait_for', arguments: { ms: String(DEFAULT_STEP_TIMEOUT_MS + 5_000) } },
        { timeout: 10 * DEFAULT_STEP_TIMEOUT_MS },
      );
      await jest.advanceTimersByTimeAsync(DEFAULT_STEP_TIMEOUT_MS + 5_000);
      expect(meta(await pending).status).toBe('completed');
      await client.close();
    } finally {
      jest.useRealTimers();
    }
  });

  test('an invalid default is refused when the server is made', () => {
    expect(() => sleepyServer(line, { defaultStepTimeoutMs: -1 }).factory()).toThrow(
      /defaultStepTimeoutMs must be a positive number of milliseconds, or false/,
    );
  });
});
