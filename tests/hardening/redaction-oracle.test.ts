import 'reflect-metadata';
import { z } from 'zod';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, type GetPromptResult } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2, createMcpHandler } from '@modelcontextprotocol/server';
import { WorkflowServer as WorkflowServerV1 } from '@mcpflow/core/v1';
import { WorkflowServer as WorkflowServerV2 } from '@mcpflow/core/v2';
import { Bind, Step, TemplateBinding, Workflow, askUser, constant, field, promptArg } from '@mcpflow/decorators';
import { getPrompt, manualClient, paused } from '../pause/instances';
import { servedOnLoopback } from '../helpers/loopback-handler';

/**
 * DESIGN §2.8 "No oracles", issue 19 M1: redaction never marks text the client itself supplied. A
 * client guessing a secret the server holds — a sensitive constant (the deploy PIN) or a token a
 * tool returned — sends its guess as an argument and as an answer; whether the guess is right must
 * not show anywhere: not in the trace, not in `_meta`, not in the question put to it (in place on
 * 1.x and 2.x, as `input_required` on 2026-07-28), not in the `requestState`'s length.
 */

const PIN = '4321';
const TOKEN = 'tok_9f8e7d6c5b4a';

@Workflow({ name: 'deploy', description: 'Deploy a service', arguments: { service: z.string(), note: z.string() } })
class Deploy {
  @Step({ tool: 'sign_in', args: { service: promptArg('service') } })
  @Bind('session')
  session!: { token: string };

  @Step({ resource: 'notes://{note}' })
  @TemplateBinding('note', promptArg('note'))
  @Bind('noted')
  noted!: string;

  @Step({
    tool: 'deploy',
    guidance: 'Deploying {service}: {note}.',
    args: {
      token: field('session', 'token'),
      pin: constant(PIN),
      note: promptArg('note'),
      confirm: askUser('Deploy {service} with note {note}?'),
    },
    sensitiveArgs: ['token', 'pin'],
  })
  deployed!: unknown;
}

type Registrar = {
  registerTool(name: string, config: object, handler: (args: Record<string, string>) => Promise<unknown>): unknown;
  registerResource(name: string, uri: unknown, config: object, handler: (uri: URL) => Promise<unknown>): unknown;
  use(...classes: unknown[]): unknown;
};

/** The deploy workflow's tools: sign_in returns TOKEN; the notes resource saves the note (its URI echoed, as handlers do). */
function register<Server extends Registrar>(server: Server, template: unknown): Server {
  server.registerTool('sign_in', { inputSchema: z.object({ service: z.string() }) }, async () => ({
    content: [{ type: 'text', text: JSON.stringify({ token: TOKEN }) }],
    structuredContent: { token: TOKEN },
  }));
  server.registerTool(
    'deploy',
    { inputSchema: z.object({ token: z.string(), pin: z.string(), note: z.string(), confirm: z.string() }) },
    async () => ({ content: [{ type: 'text', text: 'deployed' }] }),
  );
  server.registerResource('notes', template, {}, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'note saved' }],
  }));
  server.use(Deploy);
  return server;
}

/** What a client sees of one run: the questions put to it, the final result, and (2026-07-28) the state's length. */
interface Seen {
  readonly questions: unknown[];
  readonly result: GetPromptResult;
  readonly stateLength?: number;
}

interface Variant {
  readonly label: string;
  /** Runs deploy with `note`, answering the question with `answer`. */
  run(note: string, answer: string): Promise<Seen>;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const VARIANTS: Variant[] = [
  {
    label: 'SDK 1.x, 2025-11-25, asked in place',
    async run(note, answer) {
      const { ResourceTemplate } = await import('@modelcontextprotocol/sdk/server/mcp.js');
      const server = register(
        new WorkflowServerV1({ name: 'deployer', version: '1.0.0' }) as never as Registrar,
        new ResourceTemplate('notes://{note}', { list: undefined }),
      );
      const client = new ClientV1({ name: 'guesser', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      const questions: unknown[] = [];
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        questions.push(request.params);
        return { action: 'accept', content: { confirm: answer } };
      });
      const [clientSide, serverSide] = InMemoryTransportV1.createLinkedPair();
      await (server as never as WorkflowServerV1).connect(serverSide);
      await client.connect(clientSide);
      closers.push(() => client.close());
      return { questions, result: (await client.getPrompt({ name: 'deploy', arguments: { service: 'api', note } })) as GetPromptResult };
    },
  },
  {
    label: 'SDK 2.x, 2025-11-25, asked in place',
    async run(note, answer) {
      const { ResourceTemplate } = await import('@modelcontextprotocol/server');
      const server = register(
        new WorkflowServerV2({ name: 'deployer', version: '1.0.0' }) as never as Registrar,
        new ResourceTemplate('notes://{note}', { list: undefined }),
      );
      const client = new ClientV2({ name: 'guesser', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      const questions: unknown[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        questions.push(request.params);
        return { action: 'accept', content: { confirm: answer } };
      });
      const [clientSide, serverSide] = InMemoryTransportV2.createLinkedPair();
      await (server as never as WorkflowServerV2).connect(serverSide);
      await client.connect(clientSide);
      closers.push(() => client.close());
      return { questions, result: await client.getPrompt({ name: 'deploy', arguments: { service: 'api', note } }) };
    },
  },
  {
    label: 'SDK 2.x, 2026-07-28, by rounds',
    async run(note, answer) {
      const { ResourceTemplate } = await import('@modelcontextprotocol/server');
      const handler = createMcpHandler(
        () =>
          register(
            new WorkflowServerV2({ name: 'deployer', version: '1.0.0' }) as never as Registrar,
            new ResourceTemplate('notes://{note}', { list: undefined }),
          ) as never,
        { legacy: 'reject' },
      );
      const endpoint = await servedOnLoopback(handler, closers);
      const client = await manualClient(endpoint, closers);
      const params = { name: 'deploy', arguments: { service: 'api', note } };
      const first = paused(await getPrompt(client, params));
      const { requestState, ...question } = first;
      const result = (await getPrompt(client, {
        ...params,
        inputResponses: { 'deployed/confirm': { action: 'accept', content: { confirm: answer } } },
        requestState,
      })) as GetPromptResult;
      return { questions: [question], result, stateLength: requestState.length };
    },
  },
];

/** Everything the client saw, with its own guess written as ⟨guess⟩: what is left must not depend on the guess. */
function withoutGuess(seen: Seen, guess: string): string {
  return JSON.stringify(seen).split(guess).join('⟨guess⟩');
}

describe.each(VARIANTS)('$label', (variant) => {
  test.each([
    ['the sensitive constant (the deploy PIN)', PIN, '9876'],
    ['the token a tool returned', TOKEN, 'tok_0a1b2c3d4e5f'],
  ])('a guess equal to %s comes back exactly like a wrong guess', async (_secret, right, wrong) => {
    const [hit, miss] = [await variant.run(right, right), await variant.run(wrong, wrong)];
    expect(hit.result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(withoutGuess(hit, right)).toBe(withoutGuess(miss, wrong));
    // Not because nothing was redacted: the secrets the server holds are, and the guess shows as sent.
    const text = JSON.stringify(hit.result.messages);
    expect(text).toContain('"pin\\":\\"[redacted]\\"');
    expect(text).toContain('"token\\":\\"[redacted]\\"');
    expect(text).not.toContain(right === PIN ? TOKEN : PIN);
    expect(text).toContain(`- note: ${right}`);
    expect(text).toContain(`The user answered: ${right}`);
    expect(JSON.stringify(hit.questions)).toContain(`with note ${right}?`);
    // How the server told the client's text apart stays on the server.
    expect(JSON.stringify(hit)).not.toMatch(/[\uFDD0\uFDD1]|%EF%B7%9[01]/i);
  });
});
