import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { InMemoryTransport, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { WorkflowServer, type RunEndEvent, type WorkflowServerOptions } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, askModel, askUser, fromStep, promptArg } from '@mcpflow/decorators';
import { AddProjectTaskByName } from './project-workflow';
import { servedOnLoopback } from '../helpers/loopback-handler';

const KEYS = ['a shared state key for every instance, 32+ bytes'];
const choices = ['MCP Tester', 'MCP Tester (archive)'];

function projectServer(calls: string[], options: WorkflowServerOptions = { pause: { keys: KEYS } }): WorkflowServer {
  const server = new WorkflowServer({ name: 'projects', version: '1.0.0' }, options);
  server.registerTool('list_pages', { inputSchema: z.object({ query: z.string().optional() }) }, async () => {
    calls.push('list_pages');
    return { content: [{ type: 'text', text: JSON.stringify({ names: choices }) }], structuredContent: { names: choices } };
  });
  server.registerTool('add_task', { inputSchema: z.object({ project: z.string(), task: z.string() }) }, async ({ project }) => {
    calls.push('add_task');
    return { content: [{ type: 'text', text: JSON.stringify({ ok: true, page: project }) }] };
  });
  return server.use(AddProjectTaskByName);
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function statelessEndpoint(factory: () => WorkflowServer): Promise<URL> {
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  return servedOnLoopback(handler, closers);
}

function pinnedClient(answer: (params: { message: string }) => unknown): Client {
  const client = new Client(
    { name: 'pause-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => answer(request.params as { message: string }) as never);
  closers.push(() => client.close());
  return client;
}

describe('askUser on SDK 2.x', () => {
  test('protocol 2026-07-28 over stateless HTTP: input_required, the client answers and retries, the run completes', async () => {
    const calls: string[] = [];
    const url = await statelessEndpoint(() => projectServer(calls));
    const asked: string[] = [];
    const client = pinnedClient((params) => {
      asked.push(params.message);
      return { action: 'accept', content: { project: 'MCP Tester (archive)' } };
    });
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = await client.getPrompt({ name: 'add_project_task', arguments: { project: 'mcp tester', task: 'Fix the login bug' } });
    expect(asked).toEqual(["Which project page should 'Fix the login bug' go on?"]);
    expect(calls).toEqual(['list_pages', 'add_task']);
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Result of add_task:\n{"ok":true,"page":"MCP Tester (archive)"}' },
    });
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'completed',
      rounds: 1,
      questions: [{ key: 'added/project', status: 'answered', attempts: 1 }],
    });
  });

  test('protocol 2026-07-28 with _meta["mcpflow/timing"]: the result after a round carries every step\'s durationMs', async () => {
    const url = await statelessEndpoint(() => projectServer([]));
    const client = pinnedClient(() => ({ action: 'accept', content: { project: 'MCP Tester (archive)' } }));
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = await client.getPrompt({
      name: 'add_project_task',
      arguments: { project: 'mcp tester', task: 'Fix the login bug' },
      _meta: { 'mcpflow/timing': true },
    });
    const meta = result._meta?.['mcpflow/execution'] as { rounds: number; steps: { status: string; durationMs?: number }[] };
    expect(meta.rounds).toBe(1);
    expect(meta.steps.length).toBeGreaterThan(1);
    for (const step of meta.steps) expect(step).toMatchObject({ status: 'completed', durationMs: expect.any(Number) });
  });

  test('protocol 2026-07-28, a client that declares no elicitation: a handoff naming the question, no input_required', async () => {
    const calls: string[] = [];
    const url = await statelessEndpoint(() => projectServer(calls));
    const client = new Client({ name: 'pause-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    closers.push(() => client.close());
    await client.connect(new StreamableHTTPClientTransport(url));
    const result = await client.getPrompt({ name: 'add_project_task', arguments: { project: 'mcp tester', task: 'Fix the login bug' } });
    expect(calls).toEqual(['list_pages']);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      reason: `the client does not accept questions (elicitation), so it was not asked "Which project page should 'Fix the login bug' go on?" (choices: MCP Tester, MCP Tester (archive))`,
      questions: [{ status: 'unasked' }],
    });
  });

  test('a 2025 session on SDK 2.x asks in place, and its trace is exactly the one the 2026-07-28 retry returns', async () => {
    const statelessCalls: string[] = [];
    const url = await statelessEndpoint(() => projectServer(statelessCalls));
    const pinned = pinnedClient(() => ({ action: 'accept', content: { project: 'MCP Tester' } }));
    await pinned.connect(new StreamableHTTPClientTransport(url));
    const resumed = await pinned.getPrompt({ name: 'add_project_task', arguments: { project: 'mcp tester', task: 'Fix the login bug' } });

    const calls: string[] = [];
    const server = projectServer(calls, {});
    const client = new Client({ name: 'pause-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const metas: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      metas.push(request.params._meta);
      return { action: 'accept', content: { project: 'MCP Tester' } };
    });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    await client.connect(clientTransport);
    closers.push(() => client.close());
    const result = await client.getPrompt({ name: 'add_project_task', arguments: { project: 'mcp tester', task: 'Fix the login bug' } });
    expect(calls).toEqual(['list_pages', 'add_task']);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed', rounds: 1 });
    expect(resumed.messages).toEqual(result.messages);
    expect(resumed._meta?.['mcpflow/execution']).toEqual(result._meta?.['mcpflow/execution']);
    // In place, the question says which it is, as the inputRequests key does on 2026-07-28.
    expect(metas).toEqual([{ 'mcpflow/question': { key: 'added/project' } }]);
  });

  test('protocol 2026-07-28: onRunEnd is called once, as the resumed round ends, never as the run pauses', async () => {
    const ends: RunEndEvent[] = [];
    const url = await statelessEndpoint(() => projectServer([], { pause: { keys: KEYS }, onRunEnd: (event) => void ends.push(event) }));
    const client = pinnedClient(() => ({ action: 'accept', content: { project: 'MCP Tester' } }));
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.getPrompt({ name: 'add_project_task', arguments: { project: 'mcp tester', task: 'Fix the login bug' } });
    expect(ends).toEqual([
      {
        workflow: 'add_project_task',
        status: 'completed',
        outputs: { pages: { names: choices }, added: { ok: true, page: 'MCP Tester' } },
      },
    ]);
  });
});

@Workflow({ name: 'triage', description: 'Label an issue and pick its owner', arguments: { issue: z.string() } })
class Triage {
  @Step({ tool: 'fetch_issue', args: { id: promptArg('issue') } })
  @Bind('issue')
  issue!: { title: string };

  @Step({
    tool: 'label_issue',
    args: {
      id: promptArg('issue'),
      label: askModel('Pick one label for this issue', { context: { issue: fromStep('issue') }, schema: z.enum(['bug', 'feature']) }),
      owner: askUser('Who should own {issue}?'),
    },
  })
  labelled!: unknown;
}

test('protocol 2026-07-28 with sampling and elicitation in one step: one round carries both, the run completes', async () => {
  const calls: string[] = [];
  const url = await statelessEndpoint(() => {
    const server = new WorkflowServer({ name: 'triage', version: '1.0.0' }, { pause: { keys: KEYS } });
    server.registerTool('fetch_issue', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => {
      calls.push('fetch_issue');
      return { content: [{ type: 'text', text: JSON.stringify({ title: `Crash in ${id}` }) }] };
    });
    server.registerTool(
      'label_issue',
      { inputSchema: z.object({ id: z.string(), label: z.string(), owner: z.string() }) },
      async ({ id, label, owner }) => {
        calls.push('label_issue');
        return { content: [{ type: 'text', text: `${id}: ${label}, owned by ${owner}` }] };
      },
    );
    return server.use(Triage);
  });
  const client = new Client(
    { name: 'pause-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} }, sampling: {} } },
  );
  const seen: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    seen.push(`elicit: ${(request.params as { message: string }).message}`);
    return { action: 'accept', content: { owner: 'ada' } };
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    const content = request.params.messages[0].content as { text: string };
    seen.push(`sample: ${content.text.split('\n\nAnswer with')[0]}`);
    return { role: 'assistant', model: 'test-model', content: { type: 'text', text: '"bug"' } };
  });
  closers.push(() => client.close());
  await client.connect(new StreamableHTTPClientTransport(url));
  const result = await client.getPrompt({ name: 'triage', arguments: { issue: 'ISSUE-7' } });
  expect(seen.sort()).toEqual([
    'elicit: Who should own ISSUE-7?',
    'sample: Pick one label for this issue\n\nissue:\n{"title":"Crash in ISSUE-7"}',
  ]);
  expect(calls).toEqual(['fetch_issue', 'label_issue']);
  expect(result.messages.at(-1)).toEqual({
    role: 'user',
    content: { type: 'text', text: 'Result of label_issue:\nISSUE-7: bug, owned by ada' },
  });
  expect(result._meta?.['mcpflow/execution']).toMatchObject({
    status: 'completed',
    rounds: 1,
    questions: [
      { kind: 'askModel', status: 'answered' },
      { kind: 'askUser', status: 'answered' },
    ],
  });
});
