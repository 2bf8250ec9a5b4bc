import 'reflect-metadata';
import { z } from 'zod';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { Bind, Step, Workflow, askUser, constant, field, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core/v2';
import type { BenchCase } from '../case';
import { sideBySide, type Stats } from '../measure';
import { fmt, range } from '../report';
import { sized, type RunOptions } from '../run-options';

export interface PauseResult {
  paused: Stats;
  unpaused: Stats;
  roundTrip: Stats;
  ratio: number;
}

const ANSWER = 'MCP Tester (archive)';

@Workflow({ name: 'asks', description: 'Four steps, the third asks the user', arguments: { input: z.string() } })
class Asks {
  @Step({ tool: 'step_0', args: { value: promptArg('input') } })
  @Bind('out_0')
  s0!: { value: string; pages: string[] };

  @Step({ tool: 'step_1', args: { value: field('out_0', 'value') } })
  @Bind('out_1')
  s1!: { value: string };

  @Step({ tool: 'step_2', args: { value: askUser('Which page?', { choices: field('out_0', 'pages') }) } })
  @Bind('out_2')
  s2!: { value: string };

  @Step({ tool: 'step_3', args: { value: field('out_2', 'value') } })
  s3!: unknown;
}

@Workflow({ name: 'asks', description: 'Four steps, the third asks the user', arguments: { input: z.string() } })
class Answered {
  @Step({ tool: 'step_0', args: { value: promptArg('input') } })
  @Bind('out_0')
  s0!: { value: string; pages: string[] };

  @Step({ tool: 'step_1', args: { value: field('out_0', 'value') } })
  @Bind('out_1')
  s1!: { value: string };

  @Step({ tool: 'step_2', args: { value: constant(ANSWER) } })
  @Bind('out_2')
  s2!: { value: string };

  @Step({ tool: 'step_3', args: { value: field('out_2', 'value') } })
  s3!: unknown;
}

const pause = { keys: ['the benchmark state key, 32 bytes or more'] };

function server(workflow: abstract new () => unknown): WorkflowServer {
  const built = new WorkflowServer({ name: 'bench', version: '1.0.0' }, { pause });
  for (let index = 0; index < 4; index += 1) {
    built.registerTool(
      `step_${index}`,
      { description: `Step ${index}`, inputSchema: z.object({ value: z.string() }) },
      async ({ value }) => {
        const output = { value: `${value}>${index}`, pages: ['MCP Tester', ANSWER] };
        return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
      },
    );
  }
  return built.use(workflow);
}

/** A 2.x client pinned to 2026-07-28 whose HTTP requests go straight to the handler, in memory (no socket). */
async function client(workflow: abstract new () => unknown): Promise<Client> {
  const handler = createMcpHandler(() => server(workflow), { legacy: 'reject' });
  const connected = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  connected.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { value: ANSWER } }));
  await connected.connect(
    new StreamableHTTPClientTransport(new URL('http://in-memory/mcp'), { fetch: (url, init) => handler.fetch(new Request(url, init)) }),
  );
  return connected;
}

/**
 * A 4-step workflow that pauses once on protocol 2026-07-28 (input_required, the client answers,
 * the retry resumes from the sealed state) against the same run unpaused (the answer as a constant)
 * plus one client round trip (a prompts/list: 2026-07-28 has no ping), both in memory through createMcpHandler.
 */
async function pauseOverhead(options: RunOptions): Promise<PauseResult> {
  const pausing = await client(Asks);
  const straight = await client(Answered);
  const request = { name: 'asks', arguments: { input: 'hello' } };
  const [a, b] = await Promise.all([pausing.getPrompt(request), straight.getPrompt(request)]);
  const strip = (messages: typeof a.messages) =>
    JSON.stringify(messages.filter((message) => !JSON.stringify(message).match(/Question for the user|The user answered/)));
  if (strip(a.messages) !== strip(b.messages)) {
    throw new Error('the paused and the unpaused run do not build the same trace (less the question and answer)');
  }
  const result = await sideBySide(
    {
      paused: () => pausing.getPrompt(request),
      unpaused: async () => {
        await straight.getPrompt(request);
        await straight.listPrompts();
      },
      roundTrip: () => straight.listPrompts(),
    },
    sized(options, { warmup: 200, rounds: 15, batch: 50 }),
  );
  await Promise.all([pausing.close(), straight.close()]);
  return {
    paused: result.paused,
    unpaused: result.unpaused,
    roundTrip: result.roundTrip,
    ratio: result.paused.median / result.unpaused.median,
  };
}

export const pauseAndResume: BenchCase = {
  name: 'pause',
  async run(options) {
    const result = await pauseOverhead(options);
    return {
      result,
      figures: [
        {
          benchmark: '10. 4 steps paused once and resumed (2026-07-28, in memory)',
          figure: `paused ${range(result.paused, 'µs')} / unpaused + one round trip ${range(result.unpaused, 'µs')} = ${fmt(result.ratio, 3)} (the round trip alone ${range(result.roundTrip, 'µs')})`,
          target: 'ratio ≤ 1.3',
          met: result.ratio <= 1.3,
        },
      ],
    };
  },
};
