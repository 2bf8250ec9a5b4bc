import { ErrorCodes, UnknownBindingError, UnregisteredToolError, type WorkflowClass } from '@mcpflow/core';
import { MissingSdkError, RunWorkflowOptionError, runWorkflow, type AskedQuestion, type RunWorkflowOptions } from '@mcpflow/testing';
import { loadLine } from '../src/lines/load-line';
import { LINES } from './lines';
import { AddProjectTask, GetHint, Triage, brokenWorkflow } from './workflows';

const pages = { names: ['MCP Tester', 'MCP Tester (archive)'] };
const projectTools = {
  list_pages: () => pages,
  add_task: ({ project, task }: { project: string; task: string }) => ({ ok: true, page: project, task }),
};

describe.each(LINES)('$label', ({ sdk, protocol }) => {
  const run = (target: WorkflowClass, options: RunWorkflowOptions) => runWorkflow(target, { sdk, protocol, ...options });

  test('stubs by tool name and by URI template stand in for definitions and string tools: status, trace, outputs, calls', async () => {
    const result = await run(GetHint, {
      arguments: { player: 'ada' },
      tools: {
        get_my_progress: ({ player }) => ({ game_id: 'zork2', room: `Attic of ${player}` }),
        write_hint: ({ room }) => `Look under the rug in the ${room}.`,
      },
      resources: { 'if://walkthrough/{game_id}': ({ game_id }) => `# Walkthrough of ${game_id}` },
    });
    expect(result.status).toBe('completed');
    expect(result.meta.steps.map((step) => `${step.name}:${step.status}`)).toEqual([
      'progress:completed',
      'walkthrough:completed',
      'hint:completed',
    ]);
    expect(result.calls).toEqual([
      { tool: 'get_my_progress', arguments: { player: 'ada' } },
      { tool: 'write_hint', arguments: { room: 'Attic of ada', walkthrough: '# Walkthrough of zork2' } },
    ]);
    expect(result.outputs).toEqual({
      progress: { game_id: 'zork2', room: 'Attic of ada' },
      walkthrough: '# Walkthrough of zork2',
      hint: 'Look under the rug in the Attic of ada.',
    });
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Result of write_hint:\nLook under the rug in the Attic of ada.' },
    });
  });

  test('a definition without a stub runs its own handler, and its call is recorded too', async () => {
    const result = await run(GetHint, { arguments: { player: 'ada' }, tools: { write_hint: () => 'Go north.' } });
    expect(result.status).toBe('completed');
    expect(result.outputs).toMatchObject({ progress: { game_id: 'zork1', room: 'West of House' }, walkthrough: 'Walkthrough of zork1' });
    expect(result.calls.map((call) => call.tool)).toEqual(['get_my_progress', 'write_hint']);
  });

  test("a stub of a defined tool answers to the definition's schemas, as the tool does", async () => {
    const result = await run(GetHint, {
      arguments: { player: 'ada' },
      tools: { get_my_progress: () => ({ game_id: 7 }), write_hint: () => 'unused' },
    });
    expect(result.status).toBe('failed');
    expect(result.meta.stoppedAt).toBe('progress');
    expect(result.meta.reason).toContain('invalid structured content for tool get_my_progress');
    expect(result.calls.map((call) => call.tool)).toEqual(['get_my_progress']);
  });

  test('a stub that throws, or returns an error result, fails its step; what completed before is in outputs', async () => {
    const thrown = await run(GetHint, {
      arguments: { player: 'ada' },
      tools: {
        write_hint: () => {
          throw new Error('no hints left');
        },
      },
    });
    expect(thrown.status).toBe('failed');
    expect(thrown.meta).toMatchObject({ stoppedAt: 'hint', reason: 'tool write_hint threw: no hints left' });
    expect(Object.keys(thrown.outputs)).toEqual(['progress', 'walkthrough']);
    expect(thrown.messages.at(-1)?.content).toEqual({
      type: 'text',
      text: "Step 'hint' failed: tool write_hint threw: no hints left. The workflow stopped here.",
    });

    const errored = await run(GetHint, {
      arguments: { player: 'ada' },
      tools: { write_hint: async () => ({ content: [{ type: 'text', text: 'rate limited' }], isError: true }) },
    });
    expect(errored.meta).toMatchObject({ status: 'failed', stoppedAt: 'hint', reason: 'tool write_hint returned an error: rate limited' });
  });

  test('a question answered from answers, by its key: the choice goes to the tool, the trace shows question and answer', async () => {
    const result = await run(AddProjectTask, {
      arguments: { project: 'mcp tester', task: 'Fix the login bug' },
      tools: projectTools,
      answers: { 'added/project': 'MCP Tester (archive)' },
    });
    expect(result.status).toBe('completed');
    expect(result.calls).toEqual([
      { tool: 'list_pages', arguments: { query: 'mcp tester' } },
      { tool: 'add_task', arguments: { project: 'MCP Tester (archive)', task: 'Fix the login bug' } },
    ]);
    expect(result.outputs.added).toEqual({ ok: true, page: 'MCP Tester (archive)', task: 'Fix the login bug' });
    expect(result.meta.questions).toEqual([{ step: 'added', key: 'added/project', kind: 'askUser', status: 'answered', attempts: 1 }]);
    expect(result.messages.map((message) => (message.content.type === 'text' ? message.content.text : '')).slice(-4, -2)).toEqual([
      "Question for the user: Which page should 'Fix the login bug' go on?\nChoices: MCP Tester, MCP Tester (archive)",
      'The user answered: MCP Tester (archive)',
    ]);
  });

  test('an answer function sees the question, and is asked again when its answer is refused', async () => {
    const seen: AskedQuestion[] = [];
    const result = await run(AddProjectTask, {
      arguments: { project: 'mcp tester', task: 'Fix the login bug' },
      tools: projectTools,
      answers: {
        'added/project': (question: AskedQuestion) => {
          seen.push(question);
          return question.attempt === 1 ? 'Nowhere' : question.choices?.[0];
        },
      },
    });
    expect(seen.map(({ key, kind, choices, attempt }) => ({ key, kind, choices, attempt }))).toEqual([
      { key: 'added/project', kind: 'askUser', choices: pages.names, attempt: 1 },
      { key: 'added/project', kind: 'askUser', choices: pages.names, attempt: 2 },
    ]);
    expect(seen[0].text).toBe("Which page should 'Fix the login bug' go on?");
    expect(seen[1].text).toContain('The previous answer was not accepted: "Nowhere" is not one of the choices');
    expect(result.status).toBe('completed');
    expect(result.meta.questions).toEqual([expect.objectContaining({ status: 'answered', attempts: 2 })]);
    expect(result.outputs.added).toMatchObject({ page: 'MCP Tester' });
  });

  test('a question left unanswered is declined: the run ends cancelled, naming it, and calls nothing more', async () => {
    const result = await run(AddProjectTask, { arguments: { project: 'mcp tester', task: 'Fix the login bug' }, tools: projectTools });
    expect(result.status).toBe('cancelled');
    expect(result.meta).toMatchObject({
      stoppedAt: 'added',
      reason: `declined by the user: "Which page should 'Fix the login bug' go on?"`,
      questions: [{ key: 'added/project', status: 'declined' }],
    });
    expect(result.calls.map((call) => call.tool)).toEqual(['list_pages']);
    expect(result.outputs).toEqual({ pages });
  });

  test("the model's answer and a whole form, in one step: both keys answered, both values passed on", async () => {
    const result = await run(Triage, {
      arguments: { issue: 'ISSUE-7' },
      tools: { fetch_issue: ({ id }) => ({ title: `Crash in ${id}` }), label_issue: (args) => args },
      answers: { 'labelled/label': 'bug', 'labelled/owner': { owner: 'ada', notify: true } },
    });
    expect(result.status).toBe('completed');
    expect(result.calls[1]).toEqual({
      tool: 'label_issue',
      arguments: { id: 'ISSUE-7', label: 'bug', owner: { owner: 'ada', notify: true } },
    });
  });

  test('a question to the model left unanswered ends in a handoff that names it', async () => {
    const result = await run(Triage, {
      arguments: { issue: 'ISSUE-7' },
      tools: { fetch_issue: () => ({ title: 'Crash' }), label_issue: (args) => args },
      answers: { 'labelled/owner': { owner: 'ada', notify: false } },
    });
    expect(result.status).toBe('handoff');
    expect(result.meta.stoppedAt).toBe('labelled');
    expect(result.meta.reason).toContain('"Pick one label for this issue');
    expect(result.calls.map((call) => call.tool)).toEqual(['fetch_issue']);
  });

  test('a broken class rejects with its definition error and code, before anything runs', async () => {
    const calls: string[] = [];
    const rejected = run(brokenWorkflow(), { arguments: {}, tools: { analyze: () => calls.push('analyze'), review: () => 'ok' } });
    await expect(rejected).rejects.toBeInstanceOf(UnknownBindingError);
    await expect(rejected).rejects.toMatchObject({ code: ErrorCodes.UnknownBinding, message: expect.stringContaining("'analysis'") });
    expect(calls).toEqual([]);
  });

  test('a tool named by string with no stub rejects as connect() would: unregistered (91016)', async () => {
    const rejected = run(GetHint, { arguments: { player: 'ada' } });
    await expect(rejected).rejects.toBeInstanceOf(UnregisteredToolError);
    await expect(rejected).rejects.toMatchObject({ code: 91016, message: expect.stringContaining('write_hint') });
  });

  test("a missing prompt argument is the server's error, naming it", async () => {
    await expect(run(GetHint, { arguments: {}, tools: { write_hint: () => '' } })).rejects.toThrow(/player/);
  });
});

test('the default is SDK 2.x; its runs match SDK 1.x, trace for trace', async () => {
  const options = {
    arguments: { project: 'mcp tester', task: 'Fix the login bug' },
    tools: projectTools,
    answers: { 'added/project': 'MCP Tester' },
  };
  const [byDefault, onOne] = await Promise.all([runWorkflow(AddProjectTask, options), runWorkflow(AddProjectTask, { ...options, sdk: 1 })]);
  expect(byDefault).toEqual(onOne);
});

describe('options that cannot run are refused before anything runs', () => {
  test.each([
    [{ sdk: 1, protocol: '2026-07-28' }, "runWorkflow: protocol '2026-07-28' is served by SDK 2.x only"],
    [{ sdk: 3 }, 'runWorkflow: sdk is 1 or 2 (the MCP SDK line), not 3'],
    [{ protocol: '2024-11-05' }, `runWorkflow: protocol is '2025-11-25' or '2026-07-28', not "2024-11-05"`],
  ])('%j', async (options, message) => {
    const rejected = runWorkflow(GetHint, { arguments: {}, ...(options as object) });
    await expect(rejected).rejects.toBeInstanceOf(RunWorkflowOptionError);
    await expect(rejected).rejects.toThrow(message);
  });
});

test('an SDK line that is not installed is an error naming the package to install', async () => {
  // What node's loader throws for a package that is absent (CommonJS, then ESM).
  const absent = (message: string, code: string) => () => Promise.reject(Object.assign(new Error(message), { code }));
  const one = loadLine(1, absent("Cannot find module '@modelcontextprotocol/sdk/client/index.js'", 'MODULE_NOT_FOUND'));
  await expect(one).rejects.toBeInstanceOf(MissingSdkError);
  await expect(one).rejects.toMatchObject({ packageName: '@modelcontextprotocol/sdk' });
  const missing = loadLine(2, absent("Cannot find package '@modelcontextprotocol/client' imported from /app/x.js", 'ERR_MODULE_NOT_FOUND'));
  await expect(missing).rejects.toThrow(
    'runWorkflow with sdk: 2 needs @modelcontextprotocol/client, which is not installed. Fix: npm install -D @modelcontextprotocol/client',
  );
  // Anything else is not hidden behind that message.
  await expect(loadLine(2, absent("Cannot find module './typo'", 'MODULE_NOT_FOUND'))).rejects.toThrow("Cannot find module './typo'");
});
