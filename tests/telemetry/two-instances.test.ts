import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from '@modelcontextprotocol/client';
import type { GetPromptResult } from '@modelcontextprotocol/server';
import { SERVER_KIND, attributeOf, otlpReceiver, type OtlpReceiver, type OtlpSpan } from '../helpers/otlp-receiver';

/**
 * One run paused on one process and resumed on another is one trace (DESIGN §2.11), end to end:
 * two instances serving protocol 2026-07-28 over stateless HTTP with shared state keys, each
 * exporting its spans over OTLP/HTTP to a receiver this test runs on 127.0.0.1, as to a collector.
 * The trace context travels in the sealed state and wins over the retry's own `traceparent`,
 * which becomes a link.
 */

const KEY = 'the fleet-wide state key, at least 32 bytes long';

let receiver: OtlpReceiver;
const children: ChildProcess[] = [];
const clients: Client[] = [];

async function start(name: 'a' | 'b'): Promise<URL> {
  const child = spawn(process.execPath, [path.join(__dirname, 'traced-instance.js')], {
    env: { ...process.env, MCPFLOW_TEST_KEYS: JSON.stringify([KEY]), MCPFLOW_TEST_OTLP: `${receiver.base}/${name}/v1/traces` },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.on('exit', (code) => reject(new Error(`instance ${name} exited with ${code}`)));
  });
  return new URL(`http://127.0.0.1:${port}/mcp`);
}

let a: URL;
let b: URL;
beforeAll(async () => {
  receiver = await otlpReceiver();
  [a, b] = await Promise.all([start('a'), start('b')]);
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  for (const child of children) child.kill('SIGTERM');
  await receiver.close();
});

/** A 2.x client pinned to 2026-07-28 that hands input_required back instead of answering it itself. */
async function manualClient(url: URL): Promise<Client> {
  const client = new Client(
    { name: 'tracing-test', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { form: {} } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  clients.push(client);
  return client;
}

async function getPrompt(client: Client, params: Record<string, unknown>): Promise<GetPromptResult | InputRequiredResult> {
  return (await client.request({ method: 'prompts/get', params } as never, { allowInputRequired: true } as never)) as
    GetPromptResult | InputRequiredResult;
}

test('paused on one process, resumed on another: one trace, the sealed context the parent, the retry linked', async () => {
  const clientTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
  const clientSpan = '00f067aa0ba902b7';
  const args = { project: 'mcp tester', task: 'Fix the login bug' };
  const first = (await getPrompt(await manualClient(a), {
    name: 'add_project_task',
    arguments: args,
    _meta: { traceparent: `00-${clientTrace}-${clientSpan}-01` },
  })) as InputRequiredResult & { requestState: string };
  expect(first.resultType).toBe('input_required');

  // The retry comes from another trace of the client's (its own retry span): it is linked, not followed.
  const retryTrace = 'a'.repeat(32);
  const retrySpan = 'b'.repeat(16);
  const final = (await getPrompt(await manualClient(b), {
    name: 'add_project_task',
    arguments: args,
    inputResponses: { 'added/project': { action: 'accept', content: { project: 'MCP Tester' } } },
    requestState: first.requestState,
    _meta: { traceparent: `00-${retryTrace}-${retrySpan}-01` },
  })) as GetPromptResult;
  expect(final._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed', rounds: 1 });

  // Each process exports its run span and its one step span.
  const received = { a: await receiver.runSpans('a', 2), b: await receiver.runSpans('b', 2) };
  const runOf = (instance: 'a' | 'b') => received[instance].find((span) => span.kind === SERVER_KIND)!;
  const [roundOne, roundTwo] = [runOf('a'), runOf('b')];

  expect(roundOne).toMatchObject({ name: 'prompts/get add_project_task', traceId: clientTrace, parentSpanId: clientSpan });
  expect(attributeOf(roundOne, 'mcpflow.run.round')).toBe(1);
  expect(attributeOf(roundOne, 'mcpflow.execution.status')).toBe('paused');
  expect(
    roundOne.events?.map((event) => [event.name, attributeOf(event, 'mcpflow.ask.kind'), attributeOf(event, 'mcpflow.ask.key')]),
  ).toEqual([['mcpflow.ask', 'user', 'added/project']]);

  // The other process continues the same trace, under the first round's run span.
  expect(roundTwo).toMatchObject({ name: 'prompts/get add_project_task', traceId: clientTrace, parentSpanId: roundOne.spanId });
  expect(roundTwo.links).toEqual([expect.objectContaining({ traceId: retryTrace, spanId: retrySpan })]);
  expect(attributeOf(roundTwo, 'mcpflow.run.round')).toBe(2);
  expect(attributeOf(roundTwo, 'mcpflow.execution.status')).toBe('completed');

  // Each process's steps under its own round: list_pages ran on a, add_task on b.
  const stepsOf = (instance: 'a' | 'b', run: OtlpSpan) =>
    received[instance].filter((span) => span.parentSpanId === run.spanId).map((span) => [span.name, span.traceId]);
  expect(stepsOf('a', roundOne)).toEqual([['execute_tool list_pages', clientTrace]]);
  expect(stepsOf('b', roundTwo)).toEqual([['execute_tool add_task', clientTrace]]);
  expect([...received.a, ...received.b].every((span) => span.traceId === clientTrace)).toBe(true);
});
