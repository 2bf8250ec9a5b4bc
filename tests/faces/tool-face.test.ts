import 'reflect-metadata';
import type { ExecutionMeta } from '@mcpflow/core';
import { MATRIX, type Line, type TestClient, type TransportName } from '../helpers/lines';
import { Coach, CoachByName, GetHint, QuietHint, registerTools, type HintTool } from './workflows';

/**
 * A workflow served as a tool (`expose: { tool }`), through each line's real client on every
 * transport: what `tools/list` shows, and what `tools/call` returns for a run that completes,
 * fails and hands off, for bad arguments, and for a workflow that calls another.
 */

interface ToolCallResult {
  content: { type: string; text?: string }[];
  structuredContent?: { status: string; outputs: Record<string, unknown> };
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

function server(line: Line, hint: HintTool, calls?: string[]) {
  return registerTools(new line.WorkflowServer({ name: 'hints', version: '1.0.0' }), hint, calls).use(
    GetHint,
    QuietHint,
    Coach,
    CoachByName,
  );
}

async function callTool(client: TestClient, name: string, args: Record<string, unknown>): Promise<ToolCallResult> {
  return (await client.callTool({ name, arguments: args })) as ToolCallResult;
}

const texts = (result: ToolCallResult) => result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`));
const meta = (result: ToolCallResult) => result._meta?.['mcpflow/execution'] as ExecutionMeta;

describe.each(MATRIX)('$label', ({ line, transport }: { line: Line; transport: TransportName }) => {
  let client: TestClient;
  afterEach(async () => client?.close());

  test('tools/list shows each workflow tool with its arguments as the input schema; prompt: false leaves no prompt', async () => {
    client = await line.connect(() => server(line, 'ok'), { transport });
    const { tools } = await client.listTools();
    const getHint = tools.find((tool) => tool.name === 'get_hint');
    expect(getHint).toMatchObject({
      name: 'get_hint',
      title: 'Get a hint',
      description: 'Get a contextual hint for a player',
      inputSchema: {
        type: 'object',
        properties: {
          player: { type: 'string', description: "The player's name" },
          level: { type: 'string', description: 'How much to reveal' },
        },
        required: ['player'],
      },
      outputSchema: { type: 'object', properties: { status: { enum: ['completed', 'handoff', 'failed', 'cancelled'] } } },
    });
    expect(tools.find((tool) => tool.name === 'quiet_hint_tool')).toMatchObject({
      title: 'Quiet hint',
      description: 'A hint, served only as a tool',
    });
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_hint', 'hint_for', 'lookup_player', 'note', 'quiet_hint_tool']);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['get_hint', 'coach', 'coach_by_name']);
    await expect(client.getPrompt({ name: 'quiet_hint', arguments: { player: 'ada' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Prompt quiet_hint not found') as unknown,
    });
  });

  test('a completed run: the trace as content, { status, outputs } as structured content, the same _meta as the prompt', async () => {
    client = await line.connect(() => server(line, 'ok'), { transport });
    const result = await callTool(client, 'get_hint', { player: 'ada' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      status: 'completed',
      outputs: { progress: { room: 'West of House', score: 7 }, hint: { text: 'Try the mailbox in West of House' } },
    });
    expect(texts(result)).toEqual([
      'Get a contextual hint for a player\nArguments:\n- player: ada',
      expect.stringMatching(/^Plan:\n1\. progress: call tool lookup_player/) as unknown,
      "I'll look up ada's progress.",
      'Calling tool lookup_player with arguments: {"player":"ada"}',
      'Result of lookup_player:\n{"room":"West of House","score":7}',
      'Calling tool hint_for with arguments: {"room":"West of House"}',
      'Result of hint_for:\n{"text":"Try the mailbox in West of House"}',
    ]);
    const prompt = await client.getPrompt({ name: 'get_hint', arguments: { player: 'ada' } });
    expect(result._meta?.['mcpflow/execution']).toEqual(prompt._meta?.['mcpflow/execution']);
    expect(result.content).toEqual(prompt.messages.map((message) => message.content));
  });

  test('the tool face only, under its own name', async () => {
    client = await line.connect(() => server(line, 'ok'), { transport });
    const result = await callTool(client, 'quiet_hint_tool', { player: 'bob' });
    expect(result.structuredContent).toEqual({ status: 'completed', outputs: { progress: { room: 'Cellar', score: 7 } } });
  });

  test('a failed run is isError, with what completed before the failure', async () => {
    client = await line.connect(() => server(line, 'throws'), { transport });
    const result = await callTool(client, 'get_hint', { player: 'ada' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ status: 'failed', outputs: { progress: { room: 'West of House', score: 7 } } });
    expect(meta(result)).toMatchObject({ status: 'failed', stoppedAt: 'hint', reason: 'tool hint_for threw: the hint service is down' });
    expect(texts(result).at(-1)).toBe("Step 'hint' failed: tool hint_for threw: the hint service is down. The workflow stopped here.");
  });

  test('a handoff is a successful result whose text names what remains', async () => {
    client = await line.connect(() => server(line, 'needs a day'), { transport });
    const result = await callTool(client, 'get_hint', { player: 'ada' });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ status: 'handoff', outputs: { progress: { room: 'West of House', score: 7 } } });
    expect(texts(result).at(-1)).toBe(
      [
        "I cannot complete step 'hint' on the server: tool hint_for needs 'day' (no argument of the step provides it).",
        'The remaining steps are yours to complete, in order:',
        '2. hint: call tool hint_for — A hint for a room',
        '   Known arguments: {"room":"West of House"}',
        '   Arguments you must decide: day (string, required)',
        'Use the guidance and resources above; call each tool yourself once its arguments are known.',
      ].join('\n'),
    );
  });

  test('bad arguments are an InvalidParams error naming each, as for the prompt; nothing runs', async () => {
    const calls: string[] = [];
    client = await line.connect(() => server(line, 'ok', calls), { transport });
    await expect(callTool(client, 'get_hint', { playr: 'ada' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining(
        "Invalid arguments for tool get_hint: unknown argument 'playr'. Did you mean 'player'? Declared: player, level; argument 'player' is required",
      ) as unknown,
    });
    await expect(callTool(client, 'get_hint', { player: 42 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Invalid arguments for tool get_hint: argument 'player' is invalid") as unknown,
    });
    expect(calls).toEqual([]);
  });

  test('on a server made with capabilities.tools, tools/call of a workflow tool still reaches the kit: a bad argument is InvalidParams', async () => {
    const calls: string[] = [];
    const made = () =>
      registerTools(new line.WorkflowServer({ name: 'hints', version: '1.0.0' }, { capabilities: { tools: {} } }), 'ok', calls).use(
        GetHint,
      );
    client = await line.connect(made, { transport });
    await expect(callTool(client, 'get_hint', { playr: 'ada' })).rejects.toMatchObject({ code: -32602 });
    expect(calls).toEqual([]);
  });

  test("a plain tool next to workflow tools is still the SDK's: its failure is an isError result", async () => {
    client = await line.connect(() => server(line, 'throws'), { transport });
    const result = await callTool(client, 'hint_for', { room: 'Attic' });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('the hint service is down') as unknown }],
    });
  });

  test.each([
    ['by its class (workflowTool)', 'coach'],
    ['by its tool name', 'coach_by_name'],
  ])('a workflow calling a workflow tool %s runs it in process; the inner tool calls are in the trace', async (_how, name) => {
    const calls: string[] = [];
    client = await line.connect(() => server(line, 'ok', calls), { transport });
    const result = await client.getPrompt({ name, arguments: { player: 'ada' } });
    expect(meta(result as ToolCallResult & typeof result).status).toBe('completed');
    const trace = result.messages.map((message) => (message.content.type === 'text' ? message.content.text : '')).join('\n');
    expect(trace).toContain('Calling tool get_hint with arguments: {"player":"ada"}');
    expect(trace).toContain('Calling tool lookup_player with arguments: {"player":"ada"}');
    expect(trace).toContain('Calling tool hint_for with arguments: {"room":"West of House"}');
    expect(calls).toEqual([
      'hint_for West of House',
      name === 'coach' ? 'note {"status":"completed","room":"West of House"}' : 'note {"status":"completed"}',
    ]);
  });

  test.each([
    ['coach', 'ok', "Workflow 'get_hint' completed."],
    ['coach_by_name', 'ok', "Workflow 'get_hint' completed."],
    ['coach', 'throws', "Workflow 'get_hint' failed."],
  ] as const)('%s, its hint tool %s: the sub-workflow part of the trace is marked where it starts and ends', async (name, hint, end) => {
    client = await line.connect(() => server(line, hint), { transport });
    const result = await client.getPrompt({ name, arguments: { player: 'ada' } });
    const trace = result.messages.map((message) => (message.content.type === 'text' ? message.content.text : ''));
    const start = trace.indexOf("Running workflow 'get_hint': its steps follow, as its result.");
    expect(trace[start + 1]).toBe('Calling tool get_hint with arguments: {"player":"ada"}');
    const ended = trace.indexOf(end);
    expect(ended).toBeGreaterThan(start + 1);
    if (hint === 'ok') expect(trace[ended - 1]).toMatch(/^Result of get_hint:\n/);
    expect(result.messages[start].role).toBe('assistant');
    expect(result.messages[ended].role).toBe('assistant');
  });

  test("the progress a client asked for is the outer run's only: it never goes back when a step runs a workflow", async () => {
    client = await line.connect(() => server(line, 'ok'), { transport });
    const progress: { progress: number; total?: number; message?: string }[] = [];
    await client.getPrompt({ name: 'coach', arguments: { player: 'ada' } }, { onprogress: (update) => progress.push(update) });
    expect(progress.map((update) => update.message)).toEqual([
      'Started step 1 of 2: hint',
      'Finished step 1 of 2: hint',
      'Started step 2 of 2: noted',
      'Finished step 2 of 2: noted',
    ]);
  });
});
