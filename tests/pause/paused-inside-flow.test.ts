import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { WorkflowServer, type WorkflowServerOptions } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, askUser, constant, field, fromStep, item, promptArg } from '@mcpflow/decorators';
import { servedOnLoopback } from '../helpers/loopback-handler';

/**
 * A run that needs answers inside a parallel group and inside a forEach step, on protocol
 * 2026-07-28 (each answer comes with a retry, served here by a new server each request): the
 * questions of a group or a loop are put before any of it runs, so the run pauses before the group
 * and before the loop, never halfway through one; every tool runs as often as in an uninterrupted
 * run, and the final trace is the one a 2025 session (asking in place) returns.
 */

const KEYS = ['a shared state key for every instance, 32+ bytes'];
const changes = [
  { id: 'c1', title: 'Fix the login bug' },
  { id: 'c2', title: 'Faster search' },
  { id: 'c3', title: 'Dark mode' },
];

@Workflow({ name: 'release_notes', description: 'Write the release notes', arguments: { release: z.string() } })
class ReleaseNotes {
  @Step({ tool: 'list_changes', args: { release: promptArg('release') } })
  @Bind('changes')
  changes!: { items: { id: string; title: string }[] };

  @Step({ tool: 'count_changes', parallel: true, args: { release: promptArg('release') } })
  @Bind('count')
  count!: { count: number };

  @Step({ tool: 'pick_audience', parallel: true, args: { audience: askUser('Who reads the notes for {release}?') } })
  @Bind('audience')
  audience!: { audience: string };

  @Step({
    tool: 'describe_change',
    forEach: field('changes', 'items'),
    concurrency: 2,
    args: { id: item('id'), tone: askUser('Which tone?', { choices: constant(['plain', 'playful']) }) },
  })
  @Bind('descriptions')
  descriptions!: { text: string }[];

  @Step({ tool: 'publish', args: { count: fromStep('count'), audience: fromStep('audience'), descriptions: fromStep('descriptions') } })
  published!: unknown;
}

/** A server whose tools log each call (and each answer the client gives) in `events`. */
function releaseServer(events: string[], options: WorkflowServerOptions): WorkflowServer {
  const server = new WorkflowServer({ name: 'releases', version: '1.0.0' }, options);
  const tool = (name: string, input: z.ZodRawShape, result: (args: Record<string, unknown>) => Record<string, unknown>) =>
    server.registerTool(name, { inputSchema: z.object(input) }, async (args: Record<string, unknown>) => {
      events.push(`call ${name}`);
      const structured = result(args);
      return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
    });
  tool('list_changes', { release: z.string() }, () => ({ items: changes }));
  tool('count_changes', { release: z.string() }, () => ({ count: changes.length }));
  tool('pick_audience', { audience: z.string() }, ({ audience }) => ({ audience }));
  tool('describe_change', { id: z.string(), tone: z.string() }, ({ id, tone }) => ({ text: `${id}, said ${tone}ly` }));
  tool('publish', { count: z.unknown(), audience: z.unknown(), descriptions: z.unknown() }, () => ({ published: true }));
  return server.use(ReleaseNotes);
}

/** The client's answers, logged in `events` as the questions come. */
function answer(events: string[]) {
  return async (request: { params: unknown }) => {
    const { message } = request.params as { message: string };
    events.push(`ask ${message}`);
    const content: Record<string, string> = message.startsWith('Which tone?') ? { tone: 'playful' } : { audience: 'developers' };
    return { action: 'accept' as const, content };
  };
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Protocol 2026-07-28 over stateless HTTP: every request, each retry included, meets a new server. */
async function pausedRun(events: string[]) {
  const handler = createMcpHandler(() => releaseServer(events, { pause: { keys: KEYS } }), { legacy: 'reject' });
  const endpoint = await servedOnLoopback(handler, closers);
  const client = new Client(
    { name: 'pause-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', answer(events));
  closers.push(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(endpoint));
  return client.getPrompt({ name: 'release_notes', arguments: { release: '2.0' } });
}

/** A 2025 session on SDK 2.x: the server asks in place and the run never stops. */
async function uninterruptedRun(events: string[]) {
  const server = releaseServer(events, {});
  const client = new Client({ name: 'pause-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler('elicitation/create', answer(events));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  closers.push(() => client.close());
  return client.getPrompt({ name: 'release_notes', arguments: { release: '2.0' } });
}

/** The events with each concurrent stretch (a parallel group, a loop's iterations) in a fixed order. */
function inOrder(events: string[]): string[] {
  const stretches: string[][] = [];
  for (const event of events) {
    const last = stretches.at(-1);
    if (last && event.startsWith('call') && last[0].startsWith('call')) last.push(event);
    else stretches.push([event]);
  }
  return stretches.flatMap((stretch) => stretch.sort());
}

describe('a run paused where a parallel group or a forEach step asks (protocol 2026-07-28)', () => {
  test('pauses before the group and before the loop, and runs every tool as often as an uninterrupted run', async () => {
    const events: string[] = [];
    const result = await pausedRun(events);
    expect(inOrder(events)).toEqual([
      'call list_changes',
      'ask Who reads the notes for 2.0?',
      'call count_changes',
      'call pick_audience',
      'ask Which tone?',
      'call describe_change',
      'call describe_change',
      'call describe_change',
      'call publish',
    ]);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'completed',
      rounds: 2,
      steps: [
        { name: 'changes', status: 'completed' },
        { name: 'count', status: 'completed' },
        { name: 'audience', status: 'completed' },
        { name: 'descriptions', status: 'completed', iterations: { count: 3, completed: 3, failed: 0 } },
        { name: 'published', status: 'completed' },
      ],
      questions: [
        { key: 'audience/audience', status: 'answered', attempts: 1 },
        { key: 'descriptions/tone', status: 'answered', attempts: 1 },
      ],
    });
  });

  test("its trace and _meta are exactly the uninterrupted run's, questions and answers included", async () => {
    const resumed = await pausedRun([]);
    const events: string[] = [];
    const whole = await uninterruptedRun(events);
    expect(inOrder(events)).toEqual([
      'call list_changes',
      'ask Who reads the notes for 2.0?',
      'call count_changes',
      'call pick_audience',
      'ask Which tone?',
      'call describe_change',
      'call describe_change',
      'call describe_change',
      'call publish',
    ]);
    expect(resumed.messages).toEqual(whole.messages);
    expect(resumed._meta?.['mcpflow/execution']).toEqual(whole._meta?.['mcpflow/execution']);
    const texts = whole.messages.map((message) => (message.content.type === 'text' ? message.content.text : ''));
    expect(texts).toEqual(
      expect.arrayContaining([
        'Question for the user: Who reads the notes for 2.0?',
        'The user answered: developers',
        'Question for the user: Which tone?\nChoices: plain, playful',
        'The user answered: playful',
        'Result of describe_change:\n{"text":"c3, said playfully"}',
      ]),
    );
  });
});
