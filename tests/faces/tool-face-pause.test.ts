import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type CallToolResult, type InputRequiredResult } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { WorkflowServer } from '@mcpflow/core/v2';
import { MATRIX, type TestServer } from '../helpers/lines';
import { DatedCoach, DatedHint, registerTools } from './workflows';

/**
 * Pausing through the tool face: on a 2025 session the question is asked in place, during
 * `tools/call`; on 2026-07-28 the call returns `input_required` with a sealed state bound to the
 * tool, which resumes the tool call only — never the prompt of the same workflow, nor the reverse.
 */

const answer = () => ({ action: 'accept' as const, content: { day: 'Tuesday' } });

describe.each(MATRIX)('$label', ({ line, transport }) => {
  test('a question asked through tools/call (in place, or by input_required and a retry) completes the run', async () => {
    const calls: string[] = [];
    const factory = () => registerTools(new line.WorkflowServer({ name: 'hints', version: '1.0.0' }), 'ok', calls).use(DatedHint);
    const client = await line.connect(factory, { transport, elicit: answer });
    try {
      const result = (await client.callTool({ name: 'dated_hint', arguments: { player: 'Attic' } })) as CallToolResult;
      expect(result.structuredContent).toEqual({ status: 'completed', outputs: { hint: { text: 'Try the mailbox in Attic on Tuesday' } } });
      expect(result._meta?.['mcpflow/execution']).toMatchObject({
        status: 'completed',
        questions: [{ key: 'hint/day', status: 'answered', attempts: 1 }],
        rounds: 1,
      });
      expect(calls).toEqual(['hint_for Attic']);
    } finally {
      await client.close();
    }
  });
});

describe.each(MATRIX)('$label: a workflow that asks, run as a step of another', ({ line, transport }) => {
  test('asks in place on a 2025 session; on 2026-07-28 it cannot pause inside the outer run, and hands off', async () => {
    const factory = () => registerTools(new line.WorkflowServer({ name: 'hints', version: '1.0.0' }), 'ok').use(DatedCoach);
    const client = await line.connect(factory, { transport, elicit: answer });
    try {
      const result = await client.getPrompt({ name: 'dated_coach', arguments: { player: 'Attic' } });
      expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
      // The sub-workflow's part of the trace ends with its marker; its result comes just before.
      const last = result.messages.at(-2)?.content as { text: string };
      expect(result.messages.at(-1)?.content).toEqual({
        type: 'text',
        text:
          transport === 'stateless'
            ? "Workflow 'dated_hint' stopped with steps left to do, as its result says."
            : "Workflow 'dated_hint' completed.",
      });
      if (transport === 'stateless') {
        expect(last.text).toMatch(/^Result of dated_hint:\n/);
        expect(last.text).toContain("I cannot complete step 'hint' on the server");
      } else {
        expect(last.text).toContain('Result of hint_for:\n{"text":"Try the mailbox in Attic on Tuesday"}');
      }
    } finally {
      await client.close();
    }
  });
});

describe('protocol 2026-07-28: the sealed state is bound to the tool and the face', () => {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  async function manualClient(): Promise<Client> {
    const factory = () =>
      registerTools(
        new WorkflowServer(
          { name: 'hints', version: '1.0.0' },
          { pause: { keys: ['a shared key of 32 bytes or more!!'] } },
        ) as unknown as TestServer,
        'ok',
      ).use(DatedHint) as unknown as WorkflowServer;
    const handler = createMcpHandler(factory, { legacy: 'reject' });
    const serve = toNodeHandler(handler);
    const http: Server = createServer((request, response) => void serve(request, response));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const client = new Client(
      { name: 'faces-test', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
    closers.push(
      () => client.close(),
      () => handler.close(),
      () => new Promise((resolve) => http.close(resolve)),
    );
    return client;
  }

  const request = (client: Client, method: 'tools/call' | 'prompts/get', params: Record<string, unknown>) =>
    client.request({ method, params } as never, { allowInputRequired: true } as never) as Promise<Record<string, unknown>>;

  function paused(round: Record<string, unknown>): InputRequiredResult & { requestState: string } {
    if (round.resultType !== 'input_required') throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
    return round as unknown as InputRequiredResult & { requestState: string };
  }

  const args = { player: 'Attic' };
  const answers = { 'hint/day': { action: 'accept', content: { day: 'Tuesday' } } };

  test('tools/call pauses with input_required and a sealed state; the retry resumes the tool call', async () => {
    const client = await manualClient();
    const first = paused(await request(client, 'tools/call', { name: 'dated_hint', arguments: args }));
    expect(first.inputRequests?.['hint/day']).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Which day is it for Attic?' },
    });
    const final = await request(client, 'tools/call', {
      name: 'dated_hint',
      arguments: args,
      inputResponses: answers,
      requestState: first.requestState,
    });
    expect(final.structuredContent).toEqual({ status: 'completed', outputs: { hint: { text: 'Try the mailbox in Attic on Tuesday' } } });
  });

  test("a tool call's state does not resume the workflow's prompt, and a prompt's state does not resume its tool", async () => {
    const client = await manualClient();
    const toolState = paused(await request(client, 'tools/call', { name: 'dated_hint', arguments: args })).requestState;
    const promptState = paused(await request(client, 'prompts/get', { name: 'dated_hint', arguments: args })).requestState;
    await expect(
      request(client, 'prompts/get', { name: 'dated_hint', arguments: args, inputResponses: answers, requestState: toolState }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /Prompt dated_hint: requestState rejected: it was altered, forged, sealed for another prompt.*Retry prompts\/get 'dated_hint'/,
      ),
    });
    await expect(
      request(client, 'tools/call', { name: 'dated_hint', arguments: args, inputResponses: answers, requestState: promptState }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(
        /Tool dated_hint: requestState rejected: it was altered, forged.*Retry tools\/call 'dated_hint' without requestState/,
      ),
    });
  });
});
