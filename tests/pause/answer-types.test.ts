import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport as InMemoryTransportV2, createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { z } from 'zod';
import { WorkflowServer as WorkflowServerV1 } from '@mcpflow/core/v1';
import { WorkflowServer as WorkflowServerV2 } from '@mcpflow/core/v2';
import { Step, Workflow, askUser, promptArg } from '@mcpflow/decorators';

/**
 * L2: an `askUser` without a schema asks for a string (its form field is `type: string`), so an
 * answer of another type is refused and the question put again — as an answer outside the choices
 * or failing a schema is — on both SDK lines, in place and over protocol 2026-07-28.
 */

@Workflow({ name: 'assign', description: 'Assign an issue', arguments: { issue: z.string() } })
class Assign {
  @Step({ tool: 'assign_issue', args: { issue: promptArg('issue'), owner: askUser('Who should own {issue}?') } })
  assigned!: unknown;
}

/** The answer to the question whose text is `message`. */
type Answer = (message: string) => unknown;
interface Connection {
  readonly label: string;
  /** A client answering each `elicitation/create` with the next answer, against a server built by `build`. */
  connect(build: (server: WorkflowServerV1) => WorkflowServerV1, answer: Answer): Promise<ClientV1>;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const accept = (answer: Answer, message: string) => ({ action: 'accept' as const, content: { owner: answer(message) } });

const CONNECTIONS: readonly Connection[] = [
  {
    label: 'SDK 1.x, in place',
    async connect(build, answer) {
      const client = new ClientV1({ name: 'answers', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, (request) => accept(answer, request.params.message) as never);
      const [clientTransport, serverTransport] = InMemoryTransportV1.createLinkedPair();
      await build(new WorkflowServerV1({ name: 'answers', version: '1.0.0' })).connect(serverTransport);
      await client.connect(clientTransport);
      closers.push(() => client.close());
      return client;
    },
  },
  {
    label: 'SDK 2.x, in place on a 2025 session',
    async connect(build, answer) {
      const client = new ClientV2({ name: 'answers', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
      client.setRequestHandler(
        'elicitation/create',
        async (request) => accept(answer, (request.params as { message: string }).message) as never,
      );
      const [clientTransport, serverTransport] = InMemoryTransportV2.createLinkedPair();
      const server = build(new WorkflowServerV2({ name: 'answers', version: '1.0.0' }) as unknown as WorkflowServerV1);
      await (server as unknown as WorkflowServerV2).connect(serverTransport);
      await client.connect(clientTransport);
      closers.push(() => client.close());
      return client as unknown as ClientV1;
    },
  },
  {
    label: 'SDK 2.x, protocol 2026-07-28 (input_required and retries)',
    async connect(build, answer) {
      const handler = createMcpHandler(
        () =>
          build(new WorkflowServerV2({ name: 'answers', version: '1.0.0' }) as unknown as WorkflowServerV1) as unknown as WorkflowServerV2,
        { legacy: 'reject' },
      );
      const serve = toNodeHandler(handler);
      const http: Server = createServer((request, response) => void serve(request, response));
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      const client = new ClientV2(
        { name: 'answers', version: '1.0.0' },
        { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler(
        'elicitation/create',
        async (request) => accept(answer, (request.params as { message: string }).message) as never,
      );
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
      closers.push(
        () => client.close(),
        () => handler.close(),
        () => new Promise((resolve) => http.close(resolve)),
      );
      return client as unknown as ClientV1;
    },
  },
];

describe.each(CONNECTIONS)('an askUser without a schema, $label', (connection) => {
  /** Serves Assign; `owners` records what assign_issue received. */
  const assignServer = (owners: unknown[]) => (server: WorkflowServerV1) => {
    server.registerTool('assign_issue', { inputSchema: { issue: z.string(), owner: z.unknown() } }, async ({ owner }) => {
      owners.push(owner);
      return { content: [{ type: 'text', text: 'assigned' }] };
    });
    return server.use(Assign);
  };

  test('asks for a string; a number is refused and the question put again with the reason; the string answer is used', async () => {
    const owners: unknown[] = [];
    const answers: unknown[] = [42, 'ada'];
    const asked: string[] = [];
    const client = await connection.connect(assignServer(owners), (message) => {
      asked.push(message);
      return answers.shift();
    });
    const result = await client.getPrompt({ name: 'assign', arguments: { issue: 'ISSUE-7' } });
    expect(asked).toEqual([
      'Who should own ISSUE-7?',
      'Who should own ISSUE-7?\n(The previous answer was not accepted: Invalid input: expected string, received number. Please answer again.)',
    ]);
    expect(owners).toEqual(['ada']);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'completed',
      questions: [{ key: 'assigned/owner', status: 'answered', attempts: 2 }],
    });
  });

  test('answers that are never strings end, after the attempts, in the handoff a refused answer gets; the tool never runs', async () => {
    const owners: unknown[] = [];
    const answers: unknown[] = [42, true, ['a', 'b']];
    const client = await connection.connect(assignServer(owners), () => answers.shift());
    const result = await client.getPrompt({ name: 'assign', arguments: { issue: 'ISSUE-7' } });
    expect(owners).toEqual([]);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      reason: expect.stringMatching(/^no acceptable answer to "Who should own ISSUE-7\?" after 3 tries: .*expected string/),
      questions: [{ key: 'assigned/owner', status: 'refused', attempts: 3 }],
    });
  });
});
