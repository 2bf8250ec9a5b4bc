import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, StepEvent } from '@mcpflow/core';
import { MATRIX } from '../helpers/lines';

const TOKEN = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc0123456789';
const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

@Workflow({ name: 'call_api', arguments: { token: z.string(), variant: z.string() }, sensitiveArguments: ['token'] })
class CallApi {
  @Step({ tool: 'call', args: { token: promptArg('token'), variant: promptArg('variant') } })
  called!: unknown;
}

describe.each(MATRIX)('long error texts: $label', ({ line, transport }) => {
  function server(events: StepEvent[]) {
    return () => {
      const built = new line.WorkflowServer({ name: 'api', version: '1.0.0' }, { onStep: (event) => void events.push(event) });
      built.registerTool('call', { inputSchema: { token: z.string(), variant: z.string() } }, async ({ token, variant }) => {
        // An upstream error that quotes the key late: past the point where a reason is cut.
        if (variant === 'throws') throw new Error(`${'x'.repeat(1_960)} bad key ${token}`);
        return { content: [{ type: 'text', text: 'E'.repeat(3_000_000) }], isError: true };
      });
      return built.use(CallApi);
    };
  }

  test('a secret quoted late in a long error never reaches the client, not even its first part', async () => {
    const events: StepEvent[] = [];
    const client = await line.connect(server(events), { transport });
    const result = await client.getPrompt({ name: 'call_api', arguments: { token: TOKEN, variant: 'throws' } });
    await client.close();
    expect(meta(result).status).toBe('failed');
    // Any 12 characters of the key would identify it.
    const seen = JSON.stringify([result, events]);
    for (let start = 0; start + 12 <= TOKEN.length; start += 1) expect(seen).not.toContain(TOKEN.slice(start, start + 12));
    expect(meta(result).reason).toMatch(/^tool call threw: x+/);
    expect(meta(result).reason!.length).toBeLessThan(2_100);
  });

  test("a tool's huge error text is cut in _meta and onStep, and the trace still arrives", async () => {
    const events: StepEvent[] = [];
    const client = await line.connect(server(events), { transport });
    const result = await client.getPrompt({ name: 'call_api', arguments: { token: TOKEN, variant: 'huge' } });
    await client.close();
    expect(meta(result).status).toBe('failed');
    expect(meta(result).reason).toMatch(/^tool call returned an error: E+… \(3,000,\d{3} characters\)$/);
    expect(JSON.stringify(meta(result)).length).toBeLessThan(10_000);
    const ended = events.find((event) => event.phase === 'end');
    expect(JSON.stringify(ended).length).toBeLessThan(10_000);
  });
});
