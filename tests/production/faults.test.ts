import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { MATRIX, type Line } from '../helpers/lines';

type Fault = 'throws' | 'rejects' | 'hangs' | 'non-json' | 'huge' | 'is-error' | 'ok';

@Workflow({ name: 'faulty', arguments: { fault: z.string() } })
class Faulty {
  @Step({ tool: 'risky', args: { fault: promptArg('fault') }, timeoutMs: 100 })
  @Bind('risky')
  risky!: unknown;

  @Step({ tool: 'after' })
  after!: unknown;
}

const HUGE = 'x'.repeat(5 * 1024 * 1024);

/** Faulty servers (one per connection, or per request when stateless) sharing a call count. */
function faultyServer(line: Line) {
  const calls = { after: 0 };
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'faults', version: '1.0.0' });
    server.registerTool('risky', { inputSchema: { fault: z.string() } }, (({ fault }: { fault: Fault }) => {
      switch (fault) {
        case 'throws':
          throw new Error('disk on fire');
        case 'rejects':
          return Promise.reject(new TypeError('cannot read properties of undefined'));
        case 'hangs':
          return new Promise(() => undefined);
        case 'non-json':
          return { content: [{ type: 'text', text: '{not json' }] };
        case 'huge':
          return { content: [{ type: 'text', text: HUGE }] };
        case 'is-error':
          return { content: [{ type: 'text', text: 'upstream said 503' }], isError: true };
        default:
          return { content: [{ type: 'text', text: '{"fine":true}' }] };
      }
    }) as never);
    server.registerTool('after', {}, async () => {
      calls.after += 1;
      return { content: [{ type: 'text', text: 'after' }] };
    });
    return server.use(Faulty);
  };
  return { factory, calls };
}

describe.each(MATRIX)(
  'faulty tools give a partial trace with a clear message, and the next request works: $label',
  ({ line, transport }) => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    beforeAll(() => process.on('unhandledRejection', onUnhandled));
    afterAll(() => process.off('unhandledRejection', onUnhandled));

    test.each([
      ['throws', "Step 'risky' failed: tool risky threw: disk on fire. The workflow stopped here."],
      ['rejects', "Step 'risky' failed: tool risky threw: cannot read properties of undefined. The workflow stopped here."],
      ['hangs', "Step 'risky' failed: tool risky timed out after 100 ms. The workflow stopped here."],
      ['is-error', "Step 'risky' failed: tool risky returned an error: upstream said 503. The workflow stopped here."],
    ] as const)('a tool that %s', async (fault, message) => {
      const { factory, calls } = faultyServer(line);
      const client = await line.connect(factory, { transport });
      const failed = await client.getPrompt({ name: 'faulty', arguments: { fault } });
      expect(failed.messages.at(-1)).toEqual({ role: 'user', content: { type: 'text', text: message } });
      expect((failed._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('failed');
      expect(calls.after).toBe(0);
      const next = await client.getPrompt({ name: 'faulty', arguments: { fault: 'ok' } });
      expect((next._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
      expect(calls.after).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      await client.close();
    });

    test('non-JSON text is passed on as text and bound as a string', async () => {
      const client = await line.connect(faultyServer(line).factory, { transport });
      const result = await client.getPrompt({ name: 'faulty', arguments: { fault: 'non-json' } });
      expect(result.messages[3].content).toEqual({ type: 'text', text: 'Result of risky:\n{not json' });
      expect((result._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
      await client.close();
    });

    test('a 5 MB result is carried whole', async () => {
      const client = await line.connect(faultyServer(line).factory, { transport });
      const result = await client.getPrompt({ name: 'faulty', arguments: { fault: 'huge' } });
      expect(result.messages[3].content).toEqual({ type: 'text', text: `Result of risky:\n${HUGE}` });
      expect((result._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
      await client.close();
    });
  },
);

test.each(MATRIX)(
  'isolation: 500 concurrent prompts/get with distinct arguments each see only their own values: $label',
  async ({ line, transport }) => {
    @Workflow({ name: 'echo_pair', arguments: { token: z.string() } })
    class EchoPair {
      @Step({ tool: 'slow_echo', args: { value: promptArg('token') } })
      @Bind('first')
      first!: { value: string };

      @Step({ tool: 'slow_echo', args: { value: promptArg('token') } })
      second!: { value: string };
    }
    const client = await line.connect(
      () => {
        // 500 runs at once is the point here: both run caps raised past it (their own test: concurrent-runs.test.ts).
        const server = new line.WorkflowServer(
          { name: 'echo', version: '1.0.0' },
          { maxConcurrentRuns: 1000, maxConcurrentRunsPerSession: 1000 },
        );
        server.registerTool('slow_echo', { inputSchema: { value: z.string() } }, async ({ value }) => {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
          return { content: [{ type: 'text', text: JSON.stringify({ value }) }] };
        });
        return server.use(EchoPair);
      },
      { transport },
    );
    const tokens = Array.from({ length: 500 }, (_, index) => `token-${index}-${Math.random().toString(36).slice(2)}`);
    const results = await Promise.all(tokens.map((token) => client.getPrompt({ name: 'echo_pair', arguments: { token } })));
    results.forEach((result, index) => {
      const text = JSON.stringify(result.messages);
      expect(text.match(/token-\d+-[a-z0-9]+/g)?.every((seen) => seen === tokens[index])).toBe(true);
      expect(text.split(tokens[index]).length - 1).toBe(5);
    });
    await client.close();
  },
);
