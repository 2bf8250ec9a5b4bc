import 'reflect-metadata';
import { z } from 'zod';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server';
import {
  Bind,
  Step,
  TemplateBinding,
  Workflow,
  askUser,
  constant,
  defineResource,
  defineTool,
  field,
  promptArg,
} from '@mcpflow/decorators';
import { RUN_META_KEY, type ExecutionMeta, type RunMeta } from '@mcpflow/core';
import { LINES, messageText, type Line, type TestClient, type TestServer } from './helpers/lines';
import { childrenOf, recordSpans, runSpan } from './helpers/tracing';

/**
 * One scenario table, run on both SDK lines through each line's real `Client` in memory: every
 * scenario's outcome must be the expected one on each line, so a behaviour present on one line
 * only fails here. The adapters differ only where the protocol does (DESIGN §4).
 */

const getForecast = defineTool(
  'get_forecast',
  { description: 'Forecast for a city', inputSchema: { city: z.string() }, outputSchema: { city: z.string(), sky: z.string() } },
  async ({ city }) => ({ content: [{ type: 'text', text: `${city}: sunny` }], structuredContent: { city, sky: 'sunny' } }),
);

const cityGuide = defineResource('city_guide', 'guide://cities/{city}', { mimeType: 'text/plain' }, async (uri, { city }) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Guide to ${String(city)}` }],
}));

@Workflow({ name: 'trip', description: 'Plan a trip', arguments: { city: z.string() }, expose: { tool: true } })
class Trip {
  @Step({ tool: getForecast, args: { city: promptArg('city') } })
  @Bind('forecast')
  forecast!: { city: string; sky: string };

  @Step({ resource: cityGuide })
  @TemplateBinding('city', field('forecast', 'city'))
  @Bind('guide')
  guide!: string;

  @Step({ tool: 'book', args: { city: promptArg('city') }, guidance: 'Booking {city}.' })
  booking!: unknown;
}

@Workflow({ name: 'dated_trip', description: 'Plan a trip on a date', arguments: { city: z.string() }, expose: { tool: true } })
class DatedTrip {
  @Step({ tool: 'book', args: { city: promptArg('city'), date: askUser('Which day should {city} be booked?') } })
  booking!: unknown;
}

@Workflow({ name: 'round_trip', description: 'Book there and back', arguments: { city: z.string() }, expose: { tool: true } })
class RoundTrip {
  @Step({ tool: 'book', args: { city: promptArg('city') } })
  outbound!: unknown;

  @Step({ tool: 'book', name: 'return', args: { city: constant('home') } })
  inbound!: unknown;
}

/** How the scenario's `book` tool behaves, and what it takes. */
type Book =
  | 'ok'
  | 'throws'
  | 'isError'
  | 'no structured content'
  | 'null structured content'
  | 'needs a date'
  | 'rejects the city'
  | 'reads the run id'
  | 'unregistered';

/** The run ids the `book` tool read from its request context, in order. */
const runIds: (string | undefined)[] = [];

function registerBook(line: Line, server: TestServer, book: Book): void {
  if (book === 'unregistered') return;
  const inputSchema: Record<string, z.ZodType> = {
    city: book === 'rejects the city' ? z.string().min(100) : z.string(),
    date: book === 'needs a date' ? z.string() : z.string().optional(),
  };
  const outputSchema = book.endsWith('structured content') ? { booked: z.boolean() } : undefined;
  server.registerTool('book', { description: 'Book a trip', inputSchema, outputSchema }, async (args, context) => {
    const { city, date } = args as { city: string; date?: string };
    if (book === 'throws') throw new Error('booking service unreachable');
    if (book === 'isError') return { content: [{ type: 'text', text: 'no rooms left' }], isError: true };
    if (book === 'null structured content') return { content: [{ type: 'text', text: 'booked' }], structuredContent: null as never };
    if (book === 'reads the run id') runIds.push((line.metaOf(context)?.[RUN_META_KEY] as RunMeta | undefined)?.id);
    return { content: [{ type: 'text', text: `booked ${city}${date ? ` on ${date}` : ''}` }] };
  });
}

/** A server of the line with both workflows, `book` as the scenario wants it, and a plain prompt. */
function buildServer(line: Line, book: Book): TestServer {
  const server = new line.WorkflowServer({ name: 'travel', version: '1.0.0' });
  registerBook(line, server, book);
  server.registerPrompt('greet', { description: 'Greet someone', argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello, ${name}` } }],
  }));
  // round_trip only where the scenario needs it: it would add to every scenario's prompts and errors.
  return book === 'reads the run id' ? server.use(Trip, DatedTrip, RoundTrip) : server.use(Trip, DatedTrip);
}

/** How the client answers a question (elicitation), when it declares the capability at all. */
type Answer = (message: string) => { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' };

/** A client of the line connected in memory to `server`, answering questions with `answer`. */
async function connect(line: Line, server: TestServer, answer?: Answer): Promise<TestClient> {
  const capabilities = answer ? { elicitation: {} } : {};
  if (line.name === 'v1') {
    const client = new ClientV1({ name: 'parity', version: '1.0.0' }, { capabilities });
    if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
    const [clientTransport, serverTransport] = InMemoryTransportV1.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    return client;
  }
  const client = new ClientV2({ name: 'parity', version: '1.0.0' }, { capabilities });
  if (answer) client.setRequestHandler('elicitation/create', async (request) => answer(request.params.message) as never);
  const [clientTransport, serverTransport] = InMemoryTransportV2.createLinkedPair();
  await (server as unknown as { connect(transport: unknown): Promise<void> }).connect(serverTransport);
  await client.connect(clientTransport);
  return client as unknown as TestClient;
}

/** A run as a user reads it: the status, each step's status, why it stopped, and the last message. */
interface RunOutcome {
  status: string;
  steps: string[];
  reason?: string;
  last: string;
}

async function run(client: TestClient, name: string, args: Record<string, string>): Promise<RunOutcome | { error: string }> {
  try {
    const result = await client.getPrompt({ name, arguments: args });
    const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta | undefined;
    const last = messageText(result.messages.at(-1) as Parameters<typeof messageText>[0]);
    if (!meta) return { status: 'plain prompt', steps: [], last };
    const steps = meta.steps.map((step) => `${step.name}: ${step.status}`);
    return { status: meta.status, steps, ...(meta.reason === undefined ? {} : { reason: meta.reason }), last };
  } catch (error) {
    // Each client library words its error's prefix its own way; the code and the server's text are the protocol's.
    const { code, message } = error as { code: number; message: string };
    return { error: `${code} ${message.replace(/^(MCP error -?\d+: )+/, '')}` };
  }
}

/** A run through the tool face as a user reads it: the status, isError, the outputs' names, the last content. */
async function callTool(client: TestClient, name: string, args: Record<string, string>): Promise<unknown> {
  try {
    const result = (await client.callTool({ name, arguments: args })) as {
      content: { type: string; text?: string }[];
      structuredContent?: { status: string; outputs: Record<string, unknown> };
      isError?: boolean;
      _meta?: Record<string, unknown>;
    };
    const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta;
    return {
      status: result.structuredContent?.status,
      isError: result.isError === true,
      outputs: Object.keys(result.structuredContent?.outputs ?? {}),
      steps: meta.steps.map((step) => `${step.name}: ${step.status}`),
      last: messageText({ content: result.content.at(-1)! }),
    };
  } catch (error) {
    const { code, message } = error as { code: number; message: string };
    return { error: `${code} ${message.replace(/^(MCP error -?\d+: )+/, '')}` };
  }
}

interface Scenario {
  name: string;
  book: Book;
  answer?: Answer;
  act(client: TestClient): Promise<unknown>;
  expected: unknown;
}

const completedTrip = ['forecast: completed', 'guide: completed', 'booking: completed'];

/** Each run's spans (DESIGN §2.11), recorded by a real tracer provider. */
const recorded = recordSpans();

/** A traced run as a trace viewer shows it: the run span, its parent and outcome, and each step span's. */
async function tracedRun(client: TestClient, traceparent: string): Promise<unknown> {
  await client.getPrompt({ name: 'trip', arguments: { city: 'Lyon' }, _meta: { traceparent } });
  const spans = recorded.spans();
  const span = runSpan(spans, 'prompts/get trip');
  const outcome = (of: typeof span) => [
    of.name,
    of.attributes['mcpflow.step.status'] ?? of.attributes['mcpflow.execution.status'],
    of.status,
  ];
  return {
    run: [...outcome(span), span.spanContext().traceId, span.parentSpanContext?.spanId],
    steps: childrenOf(spans, span).map(outcome),
  };
}

const SCENARIOS: Scenario[] = [
  {
    name: 'tools and resources by definition, a template filled from a step and decoded for its handler',
    book: 'ok',
    act: async (client) => {
      const result = await client.getPrompt({ name: 'trip', arguments: { city: 'São Paulo' } });
      const guide = result.messages.find((message) => message.content.type === 'resource')?.content;
      return { run: await run(client, 'trip', { city: 'São Paulo' }), guide };
    },
    expected: {
      run: { status: 'completed', steps: completedTrip, last: 'Result of book:\nbooked São Paulo' },
      guide: { type: 'resource', resource: { uri: 'guide://cities/S%C3%A3o%20Paulo', mimeType: 'text/plain', text: 'Guide to São Paulo' } },
    },
  },
  {
    name: "a client's resources/read of a template the definition registered",
    book: 'ok',
    act: async (client) => (await client.readResource({ uri: 'guide://cities/S%C3%A3o%20Paulo' })).contents,
    expected: [{ uri: 'guide://cities/S%C3%A3o%20Paulo', mimeType: 'text/plain', text: 'Guide to São Paulo' }],
  },
  {
    name: 'prompts/list shows the workflows with their arguments, and the plain prompt',
    book: 'ok',
    act: async (client) => (await client.listPrompts()).prompts.map((prompt) => [prompt.name, prompt.arguments?.map((a) => a.name)]),
    expected: [
      ['greet', ['name']],
      ['trip', ['city']],
      ['dated_trip', ['city']],
    ],
  },
  {
    name: 'an argument the workflow does not declare, and a missing one, are InvalidParams naming them',
    book: 'ok',
    act: (client) => run(client, 'trip', { cty: 'Lyon' }),
    expected: {
      error:
        "-32602 Invalid arguments for prompt trip: unknown argument 'cty'. Did you mean 'city'? Declared: city; argument 'city' is required",
    },
  },
  {
    name: 'an unknown prompt is InvalidParams with a suggestion',
    book: 'ok',
    act: (client) => run(client, 'trp', { city: 'Lyon' }),
    expected: { error: "-32602 Prompt trp not found. Did you mean 'trip'?" },
  },
  {
    name: 'a plain prompt next to workflows gets its arguments checked, then runs its own callback',
    book: 'ok',
    act: async (client) => [await run(client, 'greet', { name: 'Ada' }), await run(client, 'greet', {})],
    expected: [
      { status: 'plain prompt', steps: [], last: 'Hello, Ada' },
      { error: "-32602 Invalid arguments for prompt greet: argument 'name' is required" },
    ],
  },
  {
    name: 'a tool that throws fails the run at its step; the partial trace comes back',
    book: 'throws',
    act: (client) => run(client, 'trip', { city: 'Lyon' }),
    expected: {
      status: 'failed',
      steps: ['forecast: completed', 'guide: completed', 'booking: failed'],
      reason: 'tool book threw: booking service unreachable',
      last: "Step 'booking' failed: tool book threw: booking service unreachable. The workflow stopped here.",
    },
  },
  {
    name: 'a tool result with isError fails the run',
    book: 'isError',
    act: (client) => run(client, 'trip', { city: 'Lyon' }),
    expected: {
      status: 'failed',
      steps: ['forecast: completed', 'guide: completed', 'booking: failed'],
      reason: 'tool book returned an error: no rooms left',
      last: "Step 'booking' failed: tool book returned an error: no rooms left. The workflow stopped here.",
    },
  },
  {
    name: 'a tool with an output schema that returns no structured content fails the run, as tools/call would',
    book: 'no structured content',
    act: (client) => run(client, 'trip', { city: 'Lyon' }),
    expected: {
      status: 'failed',
      steps: ['forecast: completed', 'guide: completed', 'booking: failed'],
      reason: 'tool book threw: tool book has an output schema but returned no structured content',
      last: "Step 'booking' failed: tool book threw: tool book has an output schema but returned no structured content. The workflow stopped here.",
    },
  },
  {
    name: 'structured content of null is checked against the output schema, as on every line',
    book: 'null structured content',
    act: async (client) => {
      const { reason } = (await run(client, 'trip', { city: 'Lyon' })) as RunOutcome;
      // What follows is each SDK's own wording of the schema's complaint.
      return reason?.slice(0, reason.indexOf('invalid structured content for tool book: ') + 42);
    },
    expected: 'tool book threw: invalid structured content for tool book: ',
  },
  {
    name: 'progress goes to a client that asked for it, step by step',
    book: 'ok',
    act: async (client) => {
      const progress: unknown[] = [];
      await client.getPrompt({ name: 'trip', arguments: { city: 'Lyon' } }, { onprogress: (update) => progress.push(update) });
      return progress;
    },
    expected: ['forecast', 'guide', 'booking'].flatMap((step, index) => [
      { progress: index + 0.5, total: 3, message: `Started step ${index + 1} of 3: ${step}` },
      { progress: index + 1, total: 3, message: `Finished step ${index + 1} of 3: ${step}` },
    ]),
  },
  {
    name: "a step's arguments that the tool's input schema rejects hand off with tools/call's message",
    book: 'rejects the city',
    act: async (client) => {
      const outcome = (await run(client, 'trip', { city: 'Lyon' })) as RunOutcome;
      // What follows is each SDK's own wording of the schema's complaint.
      const cut = (text = '') => text.slice(0, text.indexOf('Invalid arguments for tool book: ') + 33);
      return { ...outcome, reason: cut(outcome.reason), last: cut(outcome.last) };
    },
    expected: {
      status: 'handoff',
      steps: ['forecast: completed', 'guide: completed', 'booking: handoff'],
      reason: 'Invalid arguments for tool book: ',
      last: "I cannot complete step 'booking' on the server: Invalid arguments for tool book: ",
    },
  },
  {
    name: 'a required tool input nothing provides hands off, naming what remains',
    book: 'needs a date',
    act: (client) => run(client, 'trip', { city: 'Lyon' }),
    expected: {
      status: 'handoff',
      steps: ['forecast: completed', 'guide: completed', 'booking: handoff'],
      reason: "tool book needs 'date' (no argument of the step provides it)",
      last: [
        "I cannot complete step 'booking' on the server: tool book needs 'date' (no argument of the step provides it).",
        'The remaining steps are yours to complete, in order:',
        '3. booking: call tool book — Book a trip',
        '   Known arguments: {"city":"Lyon"}',
        '   Arguments you must decide: date (string, required)',
        'Use the guidance and resources above; call each tool yourself once its arguments are known.',
      ].join('\n'),
    },
  },
  {
    name: 'a question is asked in place (elicitation) and the run completes with the answer',
    book: 'ok',
    answer: (message) => ({ action: 'accept', content: { date: message.includes('Lyon') ? '2026-12-01' : 'never' } }),
    act: (client) => run(client, 'dated_trip', { city: 'Lyon' }),
    expected: { status: 'completed', steps: ['booking: completed'], last: 'Result of book:\nbooked Lyon on 2026-12-01' },
  },
  {
    name: "a traced run: a prompts/get span whose parent is the caller's traceparent, a child per step",
    book: 'ok',
    act: (client) => tracedRun(client, `00-${'4bf92f3577b34da6a3ce929d0e0e4736'}-00f067aa0ba902b7-01`),
    expected: {
      run: ['prompts/get trip', 'completed', { code: 0 }, '4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7'],
      steps: [
        ['execute_tool get_forecast', 'completed', { code: 0 }],
        ['resources/read guide://cities/{city}', 'completed', { code: 0 }],
        ['execute_tool book', 'completed', { code: 0 }],
      ],
    },
  },
  {
    name: 'a traced run whose tool throws: its step span and the run span are errors, with a value-free message (DESIGN §2.11)',
    book: 'throws',
    act: (client) => tracedRun(client, `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`),
    expected: {
      run: ['prompts/get trip', 'failed', { code: 2, message: 'step booking: Error, tool book threw' }, '1'.repeat(32), '2'.repeat(16)],
      steps: [
        ['execute_tool get_forecast', 'completed', { code: 0 }],
        ['resources/read guide://cities/{city}', 'completed', { code: 0 }],
        ['execute_tool book', 'failed', { code: 2, message: 'step booking: Error, tool book threw' }],
      ],
    },
  },
  {
    name: 'a declined question ends the run cancelled, and the trace says the remaining steps are not to be done',
    book: 'ok',
    answer: () => ({ action: 'decline' }),
    act: (client) => run(client, 'dated_trip', { city: 'Lyon' }),
    expected: {
      status: 'cancelled',
      steps: ['booking: cancelled'],
      reason: 'declined by the user: "Which day should Lyon be booked?"',
      last: expect.stringContaining("Do not do the remaining steps ('booking') on the user's behalf") as unknown,
    },
  },
  {
    name: "every tool a run calls sees the run's id in its request context; another run has another; the trace shows none",
    book: 'reads the run id',
    act: async (client) => {
      runIds.length = 0;
      const results = [
        await client.getPrompt({ name: 'round_trip', arguments: { city: 'Lyon' } }),
        await client.getPrompt({ name: 'round_trip', arguments: { city: 'Lyon' } }),
      ];
      const [first, again, second, secondAgain] = runIds;
      return {
        uuids: runIds.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id ?? '')),
        oneIdPerRun: first === again && second === secondAgain && first !== second,
        inTrace: runIds.some((id) => JSON.stringify(results).includes(id!)),
      };
    },
    expected: { uuids: true, oneIdPerRun: true, inTrace: false },
  },
  {
    name: "through tools/call too: every tool of the run sees the run's id, never one the client put in the request's _meta",
    book: 'reads the run id',
    act: async (client) => {
      runIds.length = 0;
      const forged = { 'mcpflow/run': { id: 'chosen-by-the-client' } };
      const results = [
        await client.callTool({ name: 'round_trip', arguments: { city: 'Lyon' }, _meta: forged }),
        await client.callTool({ name: 'round_trip', arguments: { city: 'Lyon' } }),
      ];
      const [first, again, second, secondAgain] = runIds;
      return {
        calls: runIds.length,
        uuids: runIds.every((id) => /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id ?? '')),
        oneIdPerRun: first === again && second === secondAgain && first !== second,
        inResults: runIds.some((id) => JSON.stringify(results).includes(id!)),
      };
    },
    expected: { calls: 4, uuids: true, oneIdPerRun: true, inResults: false },
  },
  {
    name: 'a client that cannot be asked gets a handoff, not an error',
    book: 'ok',
    act: async (client) => {
      const outcome = (await run(client, 'dated_trip', { city: 'Lyon' })) as RunOutcome;
      return { status: outcome.status, steps: outcome.steps };
    },
    expected: { status: 'handoff', steps: ['booking: handoff'] },
  },
  {
    name: 'tools/list shows each workflow tool with its arguments as the input schema',
    book: 'ok',
    act: async (client) =>
      (await client.listTools()).tools
        .filter((tool) => tool.name.includes('trip'))
        .map((tool) => [tool.name, tool.description, tool.inputSchema.required, Object.keys(tool.inputSchema.properties ?? {})]),
    expected: [
      ['trip', 'Plan a trip', ['city'], ['city']],
      ['dated_trip', 'Plan a trip on a date', ['city'], ['city']],
    ],
  },
  {
    name: 'tools/call of a workflow: the trace as content, { status, outputs }, no isError',
    book: 'ok',
    act: (client) => callTool(client, 'trip', { city: 'Lyon' }),
    expected: {
      status: 'completed',
      isError: false,
      outputs: ['forecast', 'guide'],
      steps: completedTrip,
      last: 'Result of book:\nbooked Lyon',
    },
  },
  {
    name: 'tools/call of a workflow whose tool throws: isError, failed, with what completed',
    book: 'throws',
    act: (client) => callTool(client, 'trip', { city: 'Lyon' }),
    expected: {
      status: 'failed',
      isError: true,
      outputs: ['forecast', 'guide'],
      steps: ['forecast: completed', 'guide: completed', 'booking: failed'],
      last: "Step 'booking' failed: tool book threw: booking service unreachable. The workflow stopped here.",
    },
  },
  {
    name: 'tools/call of a workflow that hands off: a successful result naming what remains',
    book: 'needs a date',
    act: async (client) => {
      const outcome = (await callTool(client, 'trip', { city: 'Lyon' })) as { last: string };
      return { ...outcome, last: outcome.last.split('\n')[0] };
    },
    expected: {
      status: 'handoff',
      isError: false,
      outputs: ['forecast', 'guide'],
      steps: ['forecast: completed', 'guide: completed', 'booking: handoff'],
      last: "I cannot complete step 'booking' on the server: tool book needs 'date' (no argument of the step provides it).",
    },
  },
  {
    name: 'tools/call with an argument the workflow does not declare is InvalidParams naming it',
    book: 'ok',
    act: (client) => callTool(client, 'trip', { cty: 'Lyon' }),
    expected: {
      error:
        "-32602 Invalid arguments for tool trip: unknown argument 'cty'. Did you mean 'city'? Declared: city; argument 'city' is required",
    },
  },
  {
    name: 'tools/call of a workflow that asks: asked in place, and the run completes with the answer',
    book: 'ok',
    answer: () => ({ action: 'accept', content: { date: '2026-12-01' } }),
    act: (client) => callTool(client, 'dated_trip', { city: 'Lyon' }),
    expected: {
      status: 'completed',
      isError: false,
      outputs: [],
      steps: ['booking: completed'],
      last: 'Result of book:\nbooked Lyon on 2026-12-01',
    },
  },
];

describe.each(LINES)('SDK line $name', (line) => {
  test.each(SCENARIOS)('$name', async ({ book, answer, act, expected }) => {
    const client = await connect(line, buildServer(line, book), answer);
    try {
      expect(await act(client)).toEqual(expected);
    } finally {
      await client.close();
    }
  });

  test('connect() refuses workflows whose tool is not registered, with the same errors', async () => {
    const refused = await connect(line, buildServer(line, 'unregistered')).then(
      () => undefined,
      (error: { name: string; message: string; errors: { code: number }[] }) => ({
        name: error.name,
        codes: error.errors.map((each) => each.code),
        message: error.message,
      }),
    );
    const problem =
      "calls tool 'book', which this server has not registered. Registered tools: 'get_forecast', 'trip', 'dated_trip'. Fix: register it with server.registerTool('book', …) before connecting, or call a registered tool.";
    expect(refused).toEqual({
      name: 'WorkflowValidationError',
      codes: [91016, 91016],
      message: `2 workflow definition errors:\n  - Workflow 'trip', step 'booking': ${problem}\n  - Workflow 'dated_trip', step 'booking': ${problem}`,
    });
  });
});
