import 'reflect-metadata';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { Bind, Step, Workflow, askModel, askUser, field, fromStep, promptArg } from '@mcpflow/decorators';
import type { StepEvent } from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v1';
import { createAddProjectTaskServer } from '../../examples/add-project-task/server';
import { AddProjectTaskByName } from './project-workflow';

const user = (text: string) => ({ role: 'user', content: { type: 'text', text } });
const assistant = (text: string) => ({ role: 'assistant', content: { type: 'text', text } });

type Elicit = (request: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A 1.x client that declares `capabilities` and answers elicitation (and sampling) with the given handlers. */
async function connect(server: WorkflowServer, handlers: { elicit?: Elicit; sample?: (text: string) => string } = {}): Promise<Client> {
  const capabilities = { ...(handlers.elicit ? { elicitation: {} } : {}), ...(handlers.sample ? { sampling: {} } : {}) };
  const client = new Client({ name: 'pause-test', version: '1.0.0' }, { capabilities });
  const { elicit, sample } = handlers;
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params));
  if (sample) {
    client.setRequestHandler(CreateMessageRequestSchema, (request) => {
      const content = request.params.messages[0].content;
      return {
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: sample(!Array.isArray(content) && content.type === 'text' ? content.text : '') },
      };
    });
  }
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  clients.push(client);
  return client;
}

const args = { project: 'mcp tester', task: 'Fix the login bug' };
const choices = ['MCP Tester', 'MCP Tester (archive)'];
const opening = [
  user('Add a task to a project, matching the project name loosely\nArguments:\n- project: mcp tester\n- task: Fix the login bug'),
  assistant(
    'Plan:\n1. pages: call tool list_pages — List the project pages whose name contains every word of the query\n2. added: call tool add_task — Add a task to a project page',
  ),
  assistant("I'll find the project pages matching 'mcp tester'."),
  assistant('Calling tool list_pages with arguments: {"query":"mcp tester"}'),
  user(`Result of list_pages:\n${JSON.stringify({ names: choices })}`),
];

describe('askUser on SDK 1.x: the question goes out during prompts/get and the run continues in place', () => {
  test('add_project_task asks which page when the name matches several, and completes on the server', async () => {
    const asked: ElicitRequest['params'][] = [];
    const client = await connect(createAddProjectTaskServer(), {
      elicit: (request) => {
        asked.push(request);
        return { action: 'accept', content: { project: 'MCP Tester (archive)' } };
      },
    });
    const result = await client.getPrompt({ name: 'add_project_task', arguments: args });
    expect(asked).toEqual([
      {
        // Which question this is, as the inputRequests key names it on 2026-07-28.
        _meta: { 'mcpflow/question': { key: 'added/project' } },
        message: "Which project page should 'Fix the login bug' go on?",
        requestedSchema: {
          type: 'object',
          properties: { project: { type: 'string', title: 'Project page', enum: choices } },
          required: ['project'],
        },
      },
    ]);
    expect(result.messages).toEqual([
      ...opening,
      assistant(`Question for the user: Which project page should 'Fix the login bug' go on?\nChoices: ${choices.join(', ')}`),
      user('The user answered: MCP Tester (archive)'),
      assistant('Calling tool add_task with arguments: {"project":"MCP Tester (archive)","task":"Fix the login bug"}'),
      user('Result of add_task:\n{"ok":true,"page":"MCP Tester (archive)"}'),
    ]);
    expect(result._meta).toEqual({
      'mcpflow/execution': {
        status: 'completed',
        steps: [
          { name: 'pages', status: 'completed' },
          { name: 'added', status: 'completed' },
        ],
        rounds: 1,
        questions: [{ step: 'added', key: 'added/project', kind: 'askUser', status: 'answered', attempts: 1 }],
      },
    });
  });

  test('one matching page: nothing is asked', async () => {
    const elicit = jest.fn<ElicitResult, [ElicitRequest['params']]>();
    const client = await connect(createAddProjectTaskServer(), { elicit });
    const result = await client.getPrompt({ name: 'add_project_task', arguments: { project: 'mobile', task: 'Ship 2.0' } });
    expect(elicit).not.toHaveBeenCalled();
    expect(result.messages.at(-1)).toEqual(user('Result of add_task:\n{"ok":true,"page":"Mobile App"}'));
    expect(result._meta?.['mcpflow/execution']).toEqual({
      status: 'completed',
      steps: [
        { name: 'pages', status: 'completed' },
        { name: 'added', status: 'completed' },
      ],
    });
  });

  test('a client without elicitation gets a handoff that says what was to be asked, with the choices', async () => {
    const client = await connect(createAddProjectTaskServer());
    const result = await client.getPrompt({ name: 'add_project_task', arguments: args });
    const reason = `the client does not accept questions (elicitation), so it was not asked "Which project page should 'Fix the login bug' go on?" (choices: ${choices.join(', ')})`;
    expect(result.messages.slice(0, opening.length)).toEqual(opening);
    expect(result.messages.at(-1)).toEqual(
      assistant(
        `I cannot complete step 'added' on the server: ${reason}.\nThe remaining steps are yours to complete, in order:\n` +
          '2. added: call tool add_task — Add a task to a project page\n' +
          '   Known arguments: {"task":"Fix the login bug"}\n' +
          `   Arguments still to resolve: project (the user has not answered "Which project page should 'Fix the login bug' go on?")\n` +
          'Use the guidance and resources above; call each tool yourself once its arguments are known.',
      ),
    );
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      stoppedAt: 'added',
      reason,
      rounds: 0,
      questions: [{ step: 'added', key: 'added/project', kind: 'askUser', status: 'unasked', attempts: 0 }],
    });
  });

  test('a declined or cancelled question ends the run as cancelled; neither adds the task', async () => {
    const declined = await (
      await connect(createAddProjectTaskServer(), { elicit: () => ({ action: 'decline' }) })
    ).getPrompt({ name: 'add_project_task', arguments: args });
    expect(declined._meta?.['mcpflow/execution']).toMatchObject({
      status: 'cancelled',
      reason: `declined by the user: "Which project page should 'Fix the login bug' go on?"`,
      questions: [{ key: 'added/project', status: 'declined', attempts: 1 }],
    });
    expect(JSON.stringify(declined.messages)).not.toContain('Calling tool add_task');

    const cancelled = await (
      await connect(createAddProjectTaskServer(), { elicit: () => ({ action: 'cancel' }) })
    ).getPrompt({ name: 'add_project_task', arguments: args });
    expect(cancelled._meta?.['mcpflow/execution']).toMatchObject({
      status: 'cancelled',
      steps: [
        { name: 'pages', status: 'completed' },
        { name: 'added', status: 'cancelled' },
      ],
      reason: `declined by the user: "Which project page should 'Fix the login bug' go on?"`,
      questions: [{ key: 'added/project', status: 'cancelled', attempts: 1 }],
    });
    expect(cancelled.messages.at(-1)).toEqual(
      user(
        `The workflow stopped: declined by the user: "Which project page should 'Fix the login bug' go on?". The user's answer is final. ` +
          "Do not do the remaining steps ('added') on the user's behalf: do not call their tools or look for the answer another way. " +
          'Tell the user the workflow was cancelled; run it again only if the user asks.',
      ),
    );
  });

  test('an answer outside the choices is asked again with the reason; after the last try, a handoff', async () => {
    const messages: string[] = [];
    let answers = ['Nope', 'MCP Tester'];
    const client = await connect(createAddProjectTaskServer(), {
      elicit: (request) => {
        messages.push(request.message);
        return { action: 'accept', content: { project: answers.shift() ?? 'Still wrong' } };
      },
    });
    const result = await client.getPrompt({ name: 'add_project_task', arguments: args });
    expect(messages).toEqual([
      "Which project page should 'Fix the login bug' go on?",
      'Which project page should \'Fix the login bug\' go on?\n(The previous answer was not accepted: "Nope" is not one of the choices. Please answer again.)',
    ]);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'completed',
      rounds: 2,
      questions: [{ status: 'answered', attempts: 2 }],
    });
    // Only the accepted answer is in the trace.
    expect(result.messages.filter((message) => JSON.stringify(message).includes('The user answered'))).toEqual([
      user('The user answered: MCP Tester'),
    ]);

    answers = [];
    const refused = await client.getPrompt({ name: 'add_project_task', arguments: args });
    expect(refused._meta?.['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      reason: `no acceptable answer to "Which project page should 'Fix the login bug' go on?" after 3 tries: "Still wrong" is not one of the choices`,
      rounds: 3,
      questions: [{ status: 'refused', attempts: 3 }],
    });
  });

  test('cancelling prompts/get while the question is open ends the run as cancelled, and no later step runs', async () => {
    const events: StepEvent[] = [];
    const observed = new WorkflowServer({ name: 'observed', version: '1.0.0' }, { onStep: (event) => void events.push(event) });
    let added = 0;
    observed.registerTool('list_pages', { inputSchema: { query: z.string().optional() } }, async () => ({
      content: [{ type: 'text', text: JSON.stringify({ names: choices }) }],
    }));
    observed.registerTool('add_task', { inputSchema: { project: z.string(), task: z.string() } }, async () => {
      added += 1;
      return { content: [{ type: 'text', text: 'added' }] };
    });
    observed.use(AddProjectTaskByName);
    const controller = new AbortController();
    let open!: () => void;
    const questionOpen = new Promise<void>((resolve) => (open = resolve));
    const client = await connect(observed, {
      elicit: () => {
        open();
        return new Promise<ElicitResult>(() => undefined);
      },
    });
    const pending = client.getPrompt({ name: 'add_project_task', arguments: args }, { signal: controller.signal });
    await questionOpen;
    controller.abort();
    await expect(pending).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events.filter((event) => event.phase === 'end').map((event) => [event.step, event.phase === 'end' && event.status])).toEqual([
      ['pages', 'completed'],
      ['added', 'cancelled'],
    ]);
    expect(added).toBe(0);
  });
});

@Workflow({ name: 'triage', description: 'Label an issue', arguments: { issue: z.string() } })
class Triage {
  @Step({ tool: 'fetch_issue', args: { id: promptArg('issue') } })
  @Bind('issue')
  issue!: { title: string; body: string; severities: string[] };

  @Step({
    tool: 'label_issue',
    args: {
      id: promptArg('issue'),
      label: askModel('Pick one label for this issue', {
        context: { issue: fromStep('issue') },
        schema: z.enum(['bug', 'feature', 'question']),
      }),
      assignee: askUser('Who should own {issue}?', { schema: z.string().min(2) }),
      token: askUser('Your tracker token?', { sensitive: true }),
      severity: askUser('Severity of {issue}?', { choices: field('issue', 'severities') }),
    },
    sensitiveArgs: ['token'],
  })
  labelled!: unknown;
}

function triageServer(calls: string[]): WorkflowServer {
  const server = new WorkflowServer({ name: 'triage', version: '1.0.0' });
  server.registerTool('fetch_issue', { inputSchema: { id: z.string() } }, async ({ id }) => {
    calls.push('fetch_issue');
    const issue = { title: `Crash in ${id}`, body: 'It crashes', severities: ['low', 'high'] };
    return { content: [{ type: 'text', text: JSON.stringify(issue) }] };
  });
  server.registerTool(
    'label_issue',
    { inputSchema: { id: z.string(), label: z.string(), assignee: z.string(), token: z.string(), severity: z.string() } },
    async (input) => {
      calls.push('label_issue');
      return {
        content: [
          { type: 'text', text: `labelled ${input.id} ${input.label} for ${input.assignee} (${input.severity}) with ${input.token}` },
        ],
      };
    },
  );
  return server.use(Triage);
}

describe('several asks in one step, sampling, and sensitive answers (SDK 1.x, in place)', () => {
  test('all questions of a step go out together, in one round; the model answer is checked against its schema', async () => {
    const calls: string[] = [];
    const waiting: ((result: ElicitResult) => void)[] = [];
    const messages: string[] = [];
    let allOpen!: () => void;
    const opened = new Promise<void>((resolve) => (allOpen = resolve));
    const sampled: string[] = [];
    const client = await connect(triageServer(calls), {
      elicit: (request) =>
        new Promise<ElicitResult>((resolve) => {
          messages.push(request.message);
          const field = 'requestedSchema' in request ? Object.keys(request.requestedSchema.properties)[0] : '';
          const answers: Record<string, string> = { assignee: 'ada', token: 'tok_SECRET_123', severity: 'high' };
          waiting.push(() => resolve({ action: 'accept', content: { [field]: answers[field] } }));
          if (waiting.length === 3) allOpen();
        }),
      sample: (text) => {
        sampled.push(text);
        return 'bug';
      },
    });
    const pending = client.getPrompt({ name: 'triage', arguments: { issue: 'ISSUE-7' } });
    await opened; // all three elicitations are open at once: one round, not three in sequence
    for (const answer of waiting) answer({ action: 'accept' });
    const result = await pending;
    expect(messages.sort()).toEqual(['Severity of ISSUE-7?', 'Who should own ISSUE-7?', 'Your tracker token?']);
    expect(sampled).toEqual([
      'Pick one label for this issue\n\nissue:\n{"title":"Crash in ISSUE-7","body":"It crashes","severities":["low","high"]}\n\n' +
        'Answer with only a JSON value that matches this JSON Schema: {"type":"string","enum":["bug","feature","question"]}',
    ]);
    const text = JSON.stringify(result);
    expect(text).not.toContain('tok_SECRET_123');
    expect(result.messages.slice(4)).toEqual([
      assistant(expect.stringMatching(/^Question for the model: Pick one label for this issue/)),
      user('The model answered: bug'),
      assistant('Question for the user: Who should own ISSUE-7?'),
      user('The user answered: ada'),
      assistant('Question for the user: Your tracker token?'),
      user('The user answered: [redacted]'),
      assistant('Question for the user: Severity of ISSUE-7?\nChoices: low, high'),
      user('The user answered: high'),
      assistant(
        'Calling tool label_issue with arguments: {"id":"ISSUE-7","label":"bug","assignee":"ada","token":"[redacted]","severity":"high"}',
      ),
      user('Result of label_issue:\nlabelled ISSUE-7 bug for ada (high) with [redacted]'),
    ]);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed', rounds: 1 });
    expect(calls).toEqual(['fetch_issue', 'label_issue']);
  });

  test('a client with elicitation but no sampling hands off naming the model question', async () => {
    const client = await connect(triageServer([]), { elicit: () => ({ action: 'accept', content: {} }) });
    const result = await client.getPrompt({ name: 'triage', arguments: { issue: 'ISSUE-7' } });
    expect(result._meta?.['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      reason: `the client does not accept requests to its model (sampling), so it was not asked "Pick one label for this issue"`,
    });
  });
});
