import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, equals, field, item, promptArg } from '@mcpflow/decorators';
import { readWorkflowModel } from '../src/model/read-workflow';
import { MemoryReplayGuard } from '../src/adapter-kit/pause/memory-replay-guard';
import {
  ReplayGuardError,
  SealedStateError,
  StateSealer,
  executeWorkflow,
  executeWorkflowRound,
  planWorkflow,
  type AskChannel,
  type AskResponse,
  type Host,
  type HostTool,
  type PromptResult,
  type RoundResult,
} from '../src/engine';

@Workflow({
  name: 'add_project_task',
  description: 'Add a task',
  arguments: { project: z.string(), task: z.string(), token: z.string() },
  sensitiveArguments: ['token'],
})
class AddProjectTask {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') }, guidance: 'Finding {project}.' })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: 'add_task',
    args: {
      page: askUser('Which page for {task}?', { choices: field('pages', 'names'), attempts: 2 }),
      task: promptArg('task'),
      token: promptArg('token'),
    },
    guidance: 'Adding {task}.',
  })
  @Bind('added')
  added!: unknown;

  @Step({ tool: 'notify', args: { page: field('added', 'page') } })
  notified!: unknown;
}

const plan = planWorkflow(readWorkflowModel(AddProjectTask)!, () => {
  throw new Error('no URI templates here');
});
const args = { project: 'mcp', task: 'Fix login', token: 'tok_SECRET_42' };
const KEY = 'an example key of at least thirty-two bytes';

interface FakeTool extends HostTool {
  run(args: Record<string, unknown>): unknown;
}

function host(asking: AskChannel | undefined, calls: string[]): Host<FakeTool> {
  const tool = (name: string, run: (input: Record<string, unknown>) => unknown): FakeTool => ({
    enabled: true,
    run: (input) => (calls.push(name), run(input)),
  });
  const tools: Record<string, FakeTool> = {
    list_pages: tool('list_pages', () => ({ names: ['MCP Tester', 'MCP Tester (archive)'] })),
    add_task: tool('add_task', (input) => ({ page: input.page, task: input.task })),
    notify: tool('notify', (input) => `notified ${String(input.page)}`),
  };
  return {
    signal: new AbortController().signal,
    findTool: (name) => tools[name],
    toolInputs: () => [],
    validateToolInput: (_tool, _name, input) => ({ ok: true, args: input }),
    invokeTool: (found, _name, input) => found.run(input as Record<string, unknown>),
    checkToolResult: (_tool, _name, value) => ({
      content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }],
    }),
    readResource: () => Promise.reject(new Error('no resources')),
    asking,
  };
}

const rounds = (responses?: Record<string, AskResponse>): AskChannel => ({ mode: 'rounds', supports: () => true, responses });
const accept = (page: string): AskResponse => ({ action: 'accept', content: { page } });

function inputRequired(round: RoundResult): Extract<RoundResult, { kind: 'input-required' }> {
  if (round.kind !== 'input-required') throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
  return round;
}
function result(round: RoundResult): PromptResult {
  if (round.kind !== 'result') throw new Error(`expected a result, got input_required`);
  return round.result;
}

describe('executeWorkflowRound: pausing with a sealed state and resuming from it', () => {
  const sealer = new StateSealer({ keys: [KEY] });
  const pausing = { sealer, replayGuard: new MemoryReplayGuard() };

  test('the first round pauses with the questions; the retry resumes without running completed steps; the trace is the in-place one', async () => {
    const calls: string[] = [];
    const first = inputRequired(await executeWorkflowRound(plan, args, host(rounds(), calls), {}, pausing));
    expect(first.inputRequests).toEqual({
      'added/page': {
        method: 'elicitation/create',
        params: {
          message: 'Which page for Fix login?',
          requestedSchema: {
            type: 'object',
            properties: { page: { type: 'string', title: 'page', enum: ['MCP Tester', 'MCP Tester (archive)'] } },
            required: ['page'],
          },
        },
      },
    });
    expect(calls).toEqual(['list_pages']);

    const resumed = result(
      await executeWorkflowRound(
        plan,
        args,
        host(rounds({ 'added/page': accept('MCP Tester (archive)') }), calls),
        {},
        pausing,
        first.requestState,
      ),
    );
    expect(calls).toEqual(['list_pages', 'add_task', 'notify']);

    const inPlaceCalls: string[] = [];
    const inPlace = await executeWorkflow(
      plan,
      args,
      host({ mode: 'in-place', supports: () => true, send: async () => accept('MCP Tester (archive)') }, inPlaceCalls),
      {},
    );
    const meta = (value: PromptResult) => value._meta?.['mcpflow/execution'] as Record<string, unknown>;
    expect(resumed.messages).toEqual(inPlace.messages);
    expect(meta(resumed)).toEqual(meta(inPlace));
    expect(meta(resumed)).toMatchObject({
      status: 'completed',
      rounds: 1,
      questions: [{ key: 'added/page', status: 'answered', attempts: 1 }],
    });
    expect(JSON.stringify(resumed)).not.toContain('tok_SECRET_42');
    expect(resumed.messages.map((message) => (message.content.type === 'text' ? message.content.text : '')).slice(5, 8)).toEqual([
      'Question for the user: Which page for Fix login?\nChoices: MCP Tester, MCP Tester (archive)',
      'The user answered: MCP Tester (archive)',
      'Adding Fix login.',
    ]);
  });

  test('a refused answer pauses again with the reason; answers beyond the attempts hand off', async () => {
    const calls: string[] = [];
    const first = inputRequired(await executeWorkflowRound(plan, args, host(rounds(), calls), {}, pausing));
    const second = inputRequired(
      await executeWorkflowRound(plan, args, host(rounds({ 'added/page': accept('Nope') }), calls), {}, pausing, first.requestState),
    );
    expect(second.inputRequests['added/page'].params).toMatchObject({
      message: 'Which page for Fix login?\n(The previous answer was not accepted: "Nope" is not one of the choices. Please answer again.)',
    });
    const last = result(
      await executeWorkflowRound(plan, args, host(rounds({ 'added/page': accept('Nope again') }), calls), {}, pausing, second.requestState),
    );
    expect(last._meta?.['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      rounds: 2,
      questions: [{ status: 'refused', attempts: 2 }],
    });
    expect(calls).toEqual(['list_pages']);
  });

  test('a retry without the answers pauses again; a decline or a cancel ends the run cancelled', async () => {
    const first = inputRequired(await executeWorkflowRound(plan, args, host(rounds(), []), {}, pausing));
    const again = inputRequired(
      await executeWorkflowRound(plan, args, host(rounds({ other: accept('x') }), []), {}, pausing, first.requestState),
    );
    expect(Object.keys(again.inputRequests)).toEqual(['added/page']);
    const declined = result(
      await executeWorkflowRound(plan, args, host(rounds({ 'added/page': { action: 'decline' } }), []), {}, pausing, again.requestState),
    );
    expect(declined._meta?.['mcpflow/execution']).toMatchObject({
      status: 'cancelled',
      reason: 'declined by the user: "Which page for Fix login?"',
    });
    const other = inputRequired(await executeWorkflowRound(plan, args, host(rounds(), []), {}, pausing));
    const cancelled = result(
      await executeWorkflowRound(plan, args, host(rounds({ 'added/page': { action: 'cancel' } }), []), {}, pausing, other.requestState),
    );
    expect(cancelled._meta?.['mcpflow/execution']).toMatchObject({ status: 'cancelled', stoppedAt: 'added' });
  });

  test('a state that is altered, foreign, expired, sealed by another key or another version runs nothing', async () => {
    let now = 1_800_000_000_000;
    const clocked = new StateSealer({ keys: [KEY], ttlSeconds: 60 }, () => now);
    const replayGuard = new MemoryReplayGuard(10, () => now);
    const { requestState } = inputRequired(
      await executeWorkflowRound(plan, args, host(rounds(), []), {}, { sealer: clocked, replayGuard: new MemoryReplayGuard() }),
    );
    const calls: string[] = [];
    const retry = (state: unknown, sealer: StateSealer = clocked, retryArgs: Record<string, string> = args) =>
      executeWorkflowRound(
        plan,
        retryArgs,
        host(rounds({ 'added/page': accept('MCP Tester') }), calls),
        {},
        { sealer, replayGuard },
        state,
      );
    const bytes = Buffer.from(requestState, 'base64url');
    bytes[bytes.length - 20] ^= 1;
    await expect(retry(bytes.toString('base64url'))).rejects.toMatchObject({ problem: 'not-authentic' });
    await expect(retry(requestState, clocked, { ...args, task: 'Something else' })).rejects.toMatchObject({ problem: 'not-authentic' });
    await expect(retry(requestState, clocked, { ...args, token: 'another token' })).rejects.toMatchObject({ problem: 'not-authentic' });
    await expect(retry(requestState, new StateSealer({ keys: ['another key, also thirty-two bytes long'] }))).rejects.toMatchObject({
      problem: 'not-authentic',
    });
    await expect(retry({ forged: true })).rejects.toBeInstanceOf(SealedStateError);
    // A version whose steps up to the paused one changed (the first step binds another name): the state is not its.
    const [firstStep, ...rest] = plan.model.steps;
    const otherVersion = planWorkflow({ ...plan.model, steps: [{ ...firstStep!, binding: 'listed' }, ...rest] }, () => {
      throw new Error('none');
    });
    await expect(
      executeWorkflowRound(otherVersion, args, host(rounds(), calls), {}, { sealer: clocked, replayGuard }, requestState),
    ).rejects.toMatchObject({
      problem: 'stale',
    });
    now += 61_000;
    await expect(retry(requestState)).rejects.toMatchObject({ problem: 'expired' });
    expect(calls).toEqual([]);
  });

  test('a state over the size limit cannot pause: a handoff names the question and the limit', async () => {
    const tiny = new StateSealer({ keys: [KEY], maxBytes: 64 });
    const round = result(
      await executeWorkflowRound(plan, args, host(rounds(), []), {}, { sealer: tiny, replayGuard: new MemoryReplayGuard() }),
    );
    expect(round._meta?.['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      stoppedAt: 'added',
      reason: expect.stringMatching(
        /^the server cannot pause step 'added' to ask "Which page for Fix login\?": its state would be \d+ characters sealed, over this server's limit of 64 \(pause\.maxBytes\)$/,
      ),
    });
  });
});

@Workflow({ name: 'plan_release', description: 'Plan a release', arguments: { project: z.string() } })
class PlanRelease {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') } })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: 'add_task',
    parallel: true,
    args: { page: askUser('Page for the changelog?', { choices: field('pages', 'names') }), task: promptArg('project') },
  })
  @Bind('changelog')
  changelog!: unknown;

  @Step({
    tool: 'add_task',
    name: 'announce',
    parallel: true,
    args: { page: askUser('Page for the announcement?', { choices: field('pages', 'names') }), task: promptArg('project') },
  })
  @Bind('announcement')
  announcement!: unknown;

  @Step({ tool: 'notify', forEach: field('pages', 'names'), args: { page: item(), task: askUser('What should each page be told?') } })
  @Bind('notified')
  notified!: unknown[];
}

describe('asking inside parallel groups and loops', () => {
  const sealer = new StateSealer({ keys: [KEY] });
  const pausing = { sealer, replayGuard: new MemoryReplayGuard() };
  const releasePlan = planWorkflow(readWorkflowModel(PlanRelease)!, () => {
    throw new Error('no URI templates here');
  });

  test('a parallel group asks all its questions in one round before any of its steps runs; a loop asks once before it starts', async () => {
    const calls: string[] = [];
    const run = (responses: Record<string, AskResponse> | undefined, state?: string) =>
      executeWorkflowRound(releasePlan, { project: 'mcp' }, host(rounds(responses), calls), {}, pausing, state);
    const first = inputRequired(await run(undefined));
    expect(Object.keys(first.inputRequests)).toEqual(['changelog/page', 'announce/page']);
    expect(calls).toEqual(['list_pages']);
    const second = inputRequired(
      await run({ 'changelog/page': accept('MCP Tester'), 'announce/page': accept('MCP Tester (archive)') }, first.requestState),
    );
    expect(Object.keys(second.inputRequests)).toEqual(['notified/task']);
    expect(calls).toEqual(['list_pages', 'add_task', 'add_task']);
    const done = result(await run({ 'notified/task': { action: 'accept', content: { task: 'Release on Monday' } } }, second.requestState));
    expect(calls).toEqual(['list_pages', 'add_task', 'add_task', 'notify', 'notify']);
    expect(done._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed', rounds: 2 });
    const texts = done.messages.map((message) => (message.content.type === 'text' ? message.content.text : ''));
    expect(texts.filter((text) => text.startsWith('Calling tool notify'))).toEqual([
      'Calling tool notify with arguments: {"page":"MCP Tester","task":"Release on Monday"}',
      'Calling tool notify with arguments: {"page":"MCP Tester (archive)","task":"Release on Monday"}',
    ]);
  });
});

@Workflow({ name: 'maybe_add', description: 'Add a task only when asked to', arguments: { mode: z.string() } })
class MaybeAdd {
  @Step({ tool: 'list_pages', args: { query: promptArg('mode') } })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({
    tool: 'add_task',
    when: equals(promptArg('mode'), 'add'),
    args: { page: askUser('Which page?', { choices: field('pages', 'names') }), task: promptArg('mode') },
  })
  added!: unknown;
}

test('a step its when skips asks nothing', async () => {
  const sealer = new StateSealer({ keys: [KEY] });
  const pausing = { sealer, replayGuard: new MemoryReplayGuard() };
  const maybePlan = planWorkflow(readWorkflowModel(MaybeAdd)!, () => {
    throw new Error('no URI templates here');
  });
  const calls: string[] = [];
  const skipped = result(await executeWorkflowRound(maybePlan, { mode: 'list' }, host(rounds(), calls), {}, pausing));
  expect(skipped._meta?.['mcpflow/execution']).toMatchObject({
    status: 'completed',
    steps: [{ status: 'completed' }, { status: 'skipped' }],
  });
  expect(skipped._meta?.['mcpflow/execution']).not.toHaveProperty('questions');
  expect(
    Object.keys(inputRequired(await executeWorkflowRound(maybePlan, { mode: 'add' }, host(rounds(), calls), {}, pausing)).inputRequests),
  ).toEqual(['added/page']);
});

@Workflow({ name: 'notify_then_add', description: 'Notify every page, then add a task', arguments: { project: z.string() } })
class NotifyThenAdd {
  @Step({ tool: 'list_pages', args: { query: promptArg('project') } })
  @Bind('pages')
  pages!: { names: string[] };

  @Step({ tool: 'notify', forEach: field('pages', 'names'), args: { page: item() } })
  @Bind('notified')
  notified!: string[];

  @Step({ tool: 'add_task', args: { page: askUser('Which page?', { choices: field('pages', 'names') }), task: promptArg('project') } })
  added!: unknown;
}

test('a sealed state holds what a resume needs and nothing of the executor: a loop is its binding and its summary', async () => {
  const sealer = new StateSealer({ keys: [KEY] });
  const pausing = { sealer, replayGuard: new MemoryReplayGuard() };
  const notifyPlan = planWorkflow(readWorkflowModel(NotifyThenAdd)!, () => {
    throw new Error('no URI templates here');
  });
  const paused = inputRequired(await executeWorkflowRound(notifyPlan, { project: 'mcp' }, host(rounds(), []), {}, pausing));
  const { state } = sealer.open(paused.requestState, { prompt: 'notify_then_add', arguments: { project: 'mcp' } }) as {
    state: Record<string, unknown>;
  };
  expect(Object.keys(state).sort()).toEqual(
    ['answers', 'bindings', 'flow', 'messages', 'pause', 'position', 'questions', 'rounds', 'runId', 'secrets', 'statuses'].sort(),
  );
  expect(state.position).toBe(2);
  expect(state.bindings).toEqual({
    pages: { names: ['MCP Tester', 'MCP Tester (archive)'] },
    notified: ['notified MCP Tester', 'notified MCP Tester (archive)'],
  });
  expect(state.flow).toEqual({ 1: { iterations: { count: 2, completed: 2, skipped: 0, failed: 0, cancelled: 0, failures: [] } } });
});

describe('single use: a replay guard consumes each paused round once', () => {
  const sealer = new StateSealer({ keys: [KEY] });

  test('the first resume is consumed under the run id and round, for as long as the state lives; a replay runs nothing', async () => {
    const consumed: unknown[] = [];
    const guard = new MemoryReplayGuard();
    const replayGuard = { consume: (round: Parameters<MemoryReplayGuard['consume']>[0]) => (consumed.push(round), guard.consume(round)) };
    const calls: string[] = [];
    const first = inputRequired(await executeWorkflowRound(plan, args, host(rounds(), calls), {}, { sealer, replayGuard }));
    const answer = () => host(rounds({ 'added/page': accept('MCP Tester') }), calls);
    const done = result(await executeWorkflowRound(plan, args, answer(), {}, { sealer, replayGuard }, first.requestState));
    expect(done._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(consumed).toEqual([{ runId: expect.stringMatching(/^[0-9a-f-]{36}$/), round: 1, ttlMs: expect.any(Number) }]);
    expect((consumed[0] as { ttlMs: number }).ttlMs).toBeGreaterThan(599_000);
    await expect(executeWorkflowRound(plan, args, answer(), {}, { sealer, replayGuard }, first.requestState)).rejects.toMatchObject({
      problem: 'replayed',
    });
    expect(calls).toEqual(['list_pages', 'add_task', 'notify']);
  });

  test('a state sealed by an earlier mcpflow (another payload shape) is refused as stale before the guard, not misread', async () => {
    const consumed: unknown[] = [];
    const replayGuard = { consume: async (round: unknown) => (consumed.push(round), 'first' as const) };
    // The shape round 1 sealed: the fingerprint, and a state with its secrets as a list of forms.
    const sealed = sealer.seal(
      { plan: 'whatever it was', state: { position: 1, bindings: {}, messages: [], secrets: [], answers: {}, questions: [], rounds: 1 } },
      { prompt: plan.model.name, arguments: args },
    );
    if (!sealed.ok) throw new Error(sealed.reason);
    await expect(executeWorkflowRound(plan, args, host(rounds(), []), {}, { sealer, replayGuard }, sealed.state)).rejects.toMatchObject({
      problem: 'stale',
      message: expect.stringContaining('sealed by an earlier version of mcpflow'),
    });
    expect(consumed).toEqual([]);
  });

  test('a state that does not open, or is stale, never reaches the guard', async () => {
    const consumed: unknown[] = [];
    const replayGuard = { consume: async (round: unknown) => (consumed.push(round), 'first' as const) };
    const first = inputRequired(await executeWorkflowRound(plan, args, host(rounds(), []), {}, { sealer, replayGuard }));
    const forged = Buffer.from(first.requestState, 'base64url');
    forged[forged.length - 1] ^= 1;
    // A version whose steps up to the paused one changed (the first step binds another name): the state is not its.
    const [firstStep, ...rest] = plan.model.steps;
    const otherVersion = planWorkflow({ ...plan.model, steps: [{ ...firstStep!, binding: 'listed' }, ...rest] }, () => {
      throw new Error('none');
    });
    for (const [target, state] of [
      [plan, forged.toString('base64url')],
      [otherVersion, first.requestState],
    ] as const)
      await expect(executeWorkflowRound(target, args, host(rounds(), []), {}, { sealer, replayGuard }, state)).rejects.toBeInstanceOf(
        SealedStateError,
      );
    expect(consumed).toEqual([]);
  });

  test('a guard that fails, or answers nonsense, refuses the resume with a ReplayGuardError in mcpflow’s words', async () => {
    const first = inputRequired(
      await executeWorkflowRound(plan, args, host(rounds(), []), {}, { sealer, replayGuard: new MemoryReplayGuard() }),
    );
    const failing = { consume: () => Promise.reject(new Error('ECONNRESET 10.1.2.3')) };
    const confused = { consume: async () => 'maybe' as never };
    for (const replayGuard of [failing, confused]) {
      const attempt = executeWorkflowRound(plan, args, host(rounds(), []), {}, { sealer, replayGuard }, first.requestState);
      await expect(attempt).rejects.toBeInstanceOf(ReplayGuardError);
      await expect(attempt).rejects.toMatchObject({ problem: 'unavailable', message: expect.not.stringContaining('10.1.2.3') });
    }
  });
});
