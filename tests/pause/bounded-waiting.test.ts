import 'reflect-metadata';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { z } from 'zod';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2 } from '@modelcontextprotocol/server';
import { Bind, Step, Workflow, askUser, promptArg } from '@mcpflow/decorators';
import {
  DEFAULT_ASK_TIMEOUT_MS,
  DEFAULT_MAX_PENDING_ASKS,
  DEFAULT_MAX_PENDING_ASKS_PER_SESSION,
  type ExecutionMeta,
  type WorkflowServingOptions,
} from '@mcpflow/core';
import * as v1 from '@mcpflow/core/v1';
import * as v2 from '@mcpflow/core/v2';
import { INITIALIZE_2025, MCP_POST_HEADERS, rawRequest } from '../serving/raw-http';

/**
 * DESIGN §2.8 "Bounded waiting" (issue 19, H2): on a 2025 session a run that asks in place waits
 * for the client; such waits are bounded per session and per process, released when the client
 * cancels or disconnects, and each lasts at most `askTimeoutMs`. Run on both SDK lines, in memory
 * (one connection, one server) and over `serveHttp` (a session and a server per client).
 */

@Workflow({ name: 'note', description: 'Write a note', arguments: { who: z.string() } })
class Note {
  @Step({ tool: 'write', args: { text: askUser('What should the note to {who} say?') } })
  @Bind('written')
  written!: unknown;
}

/** A workflow that never asks: what a session full of waiting runs can still start. */
@Workflow({ name: 'plain', description: 'Write a note without asking', arguments: { who: z.string() } })
class Plain {
  @Step({ tool: 'write', args: { text: promptArg('who') } })
  @Bind('written')
  written!: unknown;
}

interface Question {
  readonly message: string;
  accept(text: string): void;
}

/** A client that declares elicitation and holds each question until the test answers it. */
interface HoldingClient {
  readonly questions: Question[];
  /** Resolves once `count` questions in all have reached the client. */
  asked(count: number): Promise<void>;
  note(who: string, signal?: AbortSignal): Promise<{ status: string; reason?: string; last: string }>;
  /** Runs the workflow that does not ask. */
  plain(who: string): Promise<{ status: string; reason?: string; last: string }>;
  listPrompts(): Promise<string[]>;
  close(): Promise<void>;
}

interface Served {
  connect(): Promise<HoldingClient>;
  close(): Promise<void>;
  /** The endpoint, when served over HTTP. */
  readonly url?: URL;
}

type LineName = 'v1' | 'v2';
type TransportName = 'memory' | 'http';

function factoryOf(line: LineName, options: WorkflowServingOptions) {
  return () => {
    const Server = line === 'v1' ? v1.WorkflowServer : v2.WorkflowServer;
    const server = new Server({ name: 'notes', version: '1.0.0' }, options) as v1.WorkflowServer;
    server.registerTool('write', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
    return server.use(Note, Plain);
  };
}

function holding(line: LineName): { client: ClientV1; questions: Question[]; asked(count: number): Promise<void> } {
  const questions: Question[] = [];
  const waiters: { count: number; resolve(): void }[] = [];
  const hold = (message: string) =>
    new Promise<{ action: 'accept'; content: { text: string } }>((resolve) => {
      questions.push({ message, accept: (text) => resolve({ action: 'accept', content: { text } }) });
      for (const waiter of waiters.filter((each) => questions.length >= each.count)) waiter.resolve();
    });
  let client: ClientV1;
  if (line === 'v1') {
    client = new ClientV1({ name: 'holding', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, (request) => hold(request.params.message));
  } else {
    const v2Client = new ClientV2({ name: 'holding', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    v2Client.setRequestHandler('elicitation/create', (request) => hold(request.params.message) as never);
    client = v2Client as unknown as ClientV1;
  }
  const asked = (count: number) =>
    questions.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  return { client, questions, asked };
}

function wrap(client: ClientV1, questions: Question[], asked: (count: number) => Promise<void>, close: () => Promise<void>): HoldingClient {
  return {
    questions,
    asked,
    async note(who, signal) {
      // Longer than any wait here: the server decides how long a question may stay open.
      return outcome(await client.getPrompt({ name: 'note', arguments: { who } }, { signal, timeout: 120_000 }));
    },
    plain: async (who) => outcome(await client.getPrompt({ name: 'plain', arguments: { who } })),
    listPrompts: async () => (await client.listPrompts()).prompts.map((prompt) => prompt.name),
    close,
  };
}

function outcome(result: Awaited<ReturnType<ClientV1['getPrompt']>>): { status: string; reason?: string; last: string } {
  const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta;
  const last = result.messages.at(-1)?.content;
  return { status: meta.status, ...(meta.reason ? { reason: meta.reason } : {}), last: last?.type === 'text' ? last.text : '' };
}

async function serve(line: LineName, transport: TransportName, options: WorkflowServingOptions): Promise<Served> {
  const factory = factoryOf(line, options);
  if (transport === 'memory') {
    return {
      async connect() {
        const { client, questions, asked } = holding(line);
        if (line === 'v1') {
          const [clientTransport, serverTransport] = InMemoryTransportV1.createLinkedPair();
          await factory().connect(serverTransport);
          await client.connect(clientTransport);
        } else {
          const [clientTransport, serverTransport] = InMemoryTransportV2.createLinkedPair();
          await (factory() as unknown as { connect(transport: unknown): Promise<void> }).connect(serverTransport);
          await client.connect(clientTransport as never);
        }
        return wrap(client, questions, asked, () => client.close());
      },
      close: async () => undefined,
    };
  }
  const serving = line === 'v1' ? await v1.serveHttp(factory, { port: 0 }) : await v2.serveHttp(factory as never, { port: 0 });
  return {
    url: serving.url,
    async connect() {
      const { client, questions, asked } = holding(line);
      await client.connect((line === 'v1' ? new HttpTransportV1(serving.url) : new HttpTransportV2(serving.url)) as never);
      return wrap(client, questions, asked, () => client.close());
    },
    close: () => serving.close(),
  };
}

/** The protocol error a refused run rejects with, without the prefix each client library adds. */
async function refusal(run: Promise<unknown>): Promise<string> {
  const error = (await run.then(
    () => ({ code: 0, message: 'not refused' }),
    (thrown: unknown) => thrown,
  )) as { code: number; message: string };
  return `${error.code} ${error.message.replace(/^(MCP error -?\d+: )+/, '')}`;
}

const opened: (Served | HoldingClient)[] = [];
afterEach(async () => {
  for (const each of opened.splice(0).reverse()) await each.close();
});

async function open(line: LineName, transport: TransportName, options: WorkflowServingOptions) {
  const served = await serve(line, transport, options);
  opened.push(served);
  return {
    served,
    async client() {
      const client = await served.connect();
      opened.push(client);
      return client;
    },
  };
}

const MATRIX = (['v1', 'v2'] as const).flatMap((line) =>
  (['memory', 'http'] as const).map((transport) => ({ label: `${line} ${transport}`, line, transport })),
);

describe.each(MATRIX)('bounded waiting: $label', ({ line, transport }) => {
  test('a session waits for at most maxPendingAsksPerSession answers: one more run is refused, naming the option', async () => {
    const { client } = await open(line, transport, { maxPendingAsksPerSession: 3 });
    const asker = await client();
    const runs = ['Ada', 'Bo', 'Cy'].map((who) => asker.note(who));
    await asker.asked(3);
    expect(await refusal(asker.note('Di'))).toBe(
      '-32000 Refused: this session already waits for 3 answers to questions (maxPendingAsksPerSession: 3). ' +
        'Answer or cancel them first, or raise maxPendingAsksPerSession.',
    );
    expect(asker.questions).toHaveLength(3);
    // The session still serves everything else.
    expect(await asker.listPrompts()).toEqual(['note', 'plain']);
    // An answer frees its place: the next run asks.
    asker.questions[0].accept('hello');
    expect(await runs[0]).toMatchObject({ status: 'completed', last: 'Result of write:\nhello' });
    const next = asker.note('Ed');
    await asker.asked(4);
    expect(asker.questions[3].message).toBe('What should the note to Ed say?');
    for (const question of asker.questions.slice(1)) question.accept('done');
    expect((await Promise.all([...runs.slice(1), next])).map((run) => run.status)).toEqual(['completed', 'completed', 'completed']);
  });

  test('by default a session waits for 100 answers, refuses the 101st asking run naming maxPendingAsksPerSession, and still runs what does not ask', async () => {
    const { client } = await open(line, transport, {});
    const asker = await client();
    // Settled apart, so that runs left waiting when an assertion fails end with the test, not the process.
    const runs = Promise.allSettled(Array.from({ length: 100 }, (_, index) => asker.note(`caller ${index}`)));
    await asker.asked(100);
    expect(await refusal(asker.note('one more'))).toBe(
      '-32000 Refused: this session already waits for 100 answers to questions (maxPendingAsksPerSession: 100). ' +
        'Answer or cancel them first, or raise maxPendingAsksPerSession.',
    );
    // Waiting runs do not count under maxConcurrentRunsPerSession (16): the session still starts runs that do not ask.
    expect(await asker.plain('Ada')).toEqual({ status: 'completed', last: 'Result of write:\nAda' });
    for (const question of asker.questions) question.accept('done');
    expect((await runs).map((run) => (run.status === 'fulfilled' ? run.value.status : run.reason))).toEqual(Array(100).fill('completed'));
  });

  test('a run waiting for an answer gives its place under the run caps up, and takes it back past them when answered', async () => {
    const { client } = await open(line, transport, { maxConcurrentRuns: 1, maxConcurrentRunsPerSession: 1 });
    const asker = await client();
    const runs = Promise.allSettled(['Ada', 'Bo', 'Cy'].map((who) => asker.note(who)));
    await asker.asked(3);
    expect(await asker.plain('Di')).toEqual({ status: 'completed', last: 'Result of write:\nDi' });
    // Answered together, the three runs go on at once, past the cap of 1: they were admitted.
    for (const question of asker.questions) question.accept('done');
    expect((await runs).map((run) => (run.status === 'fulfilled' ? run.value.status : run.reason))).toEqual(Array(3).fill('completed'));
    // Their places are released when they end: the cap holds again.
    expect(await asker.plain('Ed')).toMatchObject({ status: 'completed' });
  });

  test('another session has a place of its own', async () => {
    const { client } = await open(line, transport, { maxPendingAsksPerSession: 1 });
    const first = await client();
    const second = await client();
    const waiting = first.note('Ada');
    await first.asked(1);
    const other = second.note('Bo');
    await second.asked(1);
    first.questions[0].accept('one');
    second.questions[0].accept('two');
    expect((await Promise.all([waiting, other])).map((run) => run.last)).toEqual(['Result of write:\none', 'Result of write:\ntwo']);
  });

  test('the process waits for at most maxPendingAsks answers, counting every session and server', async () => {
    const { client } = await open(line, transport, { maxPendingAsks: 2 });
    const first = await client();
    const second = await client();
    const runs = [first.note('Ada'), first.note('Bo')];
    await first.asked(2);
    expect(await refusal(second.note('Cy'))).toBe(
      '-32000 Refused: this server process already waits for 2 answers to questions (maxPendingAsks: 2). ' +
        'Answer or cancel them first, or raise maxPendingAsks.',
    );
    for (const question of first.questions) question.accept('ok');
    await Promise.all(runs);
    const later = second.note('Di');
    await second.asked(1);
    second.questions[0].accept('ok');
    expect(await later).toMatchObject({ status: 'completed' });
  });

  test('cancelling a request releases its question', async () => {
    const { client } = await open(line, transport, { maxPendingAsksPerSession: 1 });
    const asker = await client();
    const controller = new AbortController();
    const cancelled = asker.note('Ada', controller.signal);
    await asker.asked(1);
    controller.abort('the user closed the dialog');
    await expect(cancelled).rejects.toThrow();
    const { run: next } = await eventuallyAsked(asker, 'Bo', 2);
    asker.questions[1].accept('after the cancel');
    expect(await next).toMatchObject({ status: 'completed', last: 'Result of write:\nafter the cancel' });
  });

  test('a client that disconnects releases its questions', async () => {
    const { client } = await open(line, transport, { maxPendingAsks: 1 });
    const leaving = await client();
    const staying = await client();
    const abandoned = leaving.note('Ada');
    await leaving.asked(1);
    await leaving.close();
    await abandoned.catch(() => undefined);
    const { run: next } = await eventuallyAsked(staying, 'Bo', 1);
    staying.questions[0].accept('still here');
    expect(await next).toMatchObject({ status: 'completed', last: 'Result of write:\nstill here' });
  });

  test('a question waits at most askTimeoutMs: the run hands off, and its place is free again', async () => {
    const { client } = await open(line, transport, { askTimeoutMs: 300, maxPendingAsksPerSession: 1 });
    const asker = await client();
    const timedOut = await asker.note('Ada');
    expect(timedOut.status).toBe('handoff');
    expect(timedOut.reason).toMatch(/^the client could not answer "What should the note to Ada say\?": .*time/i);
    const next = asker.note('Bo');
    await asker.asked(2);
    asker.questions[1].accept('in time');
    expect(await next).toMatchObject({ status: 'completed' });
  });
});

/**
 * Starts a run once the server has released an earlier question (its release follows the client's
 * cancel or disconnect asynchronously): refused runs are retried until one asks, or the test times out.
 */
async function eventuallyAsked(client: HoldingClient, who: string, count: number): Promise<{ run: ReturnType<HoldingClient['note']> }> {
  for (;;) {
    const run = client.note(who);
    const outcome = await Promise.race([
      client.asked(count).then(() => 'asked' as const),
      run.then(
        () => 'ended' as const,
        () => 'refused' as const,
      ),
    ]);
    if (outcome === 'asked') return { run };
    if (outcome === 'ended') throw new Error('the run ended without asking');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('by default one answer is awaited 2 minutes, 100 at once per session and 1,000 in the process', () => {
  expect([DEFAULT_ASK_TIMEOUT_MS, DEFAULT_MAX_PENDING_ASKS_PER_SESSION, DEFAULT_MAX_PENDING_ASKS]).toEqual([120_000, 100, 1_000]);
});

describe.each(['v1', 'v2'] as const)('bounded waiting options on %s', (line) => {
  test.each([
    ['askTimeoutMs', 0],
    ['askTimeoutMs', -5],
    ['askTimeoutMs', 2 ** 31],
    ['maxPendingAsksPerSession', 0],
    ['maxPendingAsksPerSession', 1.5],
    ['maxPendingAsks', -1],
    ['maxPendingAsks', Number.NaN],
    ['maxPendingAsks', '10'],
  ])('%s: %p is refused when the server is made, naming the option', (option, value) => {
    expect(() => factoryOf(line, { [option]: value } as WorkflowServingOptions)()).toThrow(
      expect.objectContaining({
        name: 'InvalidServerOptionError',
        message: expect.stringContaining(`WorkflowServer option ${option} must be`),
      }),
    );
  });
});

/** Over HTTP, a client that drops the connection of its request has left it: its question is released. */
describe.each(['v1', 'v2'] as const)('a dropped HTTP request on %s', (line) => {
  test('releases its question without a cancel notification', async () => {
    const { served, client } = await open(line, 'http', { maxPendingAsks: 1 });
    const url = served.url!;
    const opening = await rawRequest(url, { headers: MCP_POST_HEADERS, body: withElicitation(INITIALIZE_2025) });
    const sessionId = opening.headers['mcp-session-id'] as string;
    const session = { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    await rawRequest(url, { headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const get = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'note', arguments: { who: 'Ada' } } });
    const dropped = await streamUntil(url, session, get, 'elicitation/create');
    dropped.destroy();
    const staying = await client();
    const { run: next } = await eventuallyAsked(staying, 'Bo', 1);
    staying.questions[0].accept('after the drop');
    expect(await next).toMatchObject({ status: 'completed' });
  });
});

function withElicitation(initialize: string): string {
  const message = JSON.parse(initialize) as { params: { capabilities: Record<string, unknown> } };
  message.params.capabilities = { elicitation: {} };
  return JSON.stringify(message);
}

/** POSTs `body` and resolves with the open request once its SSE stream carried `text`. */
function streamUntil(url: URL, headers: Record<string, string>, body: string, text: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: 'POST', headers }, (incoming) => {
      let seen = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => {
        seen += chunk;
        if (seen.includes(text)) resolve(outgoing);
      });
      incoming.on('error', () => undefined);
    });
    outgoing.on('error', (error) => (outgoing.destroyed ? undefined : reject(error)));
    outgoing.end(body);
  });
}
