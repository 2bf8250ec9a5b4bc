import { callTool, resumeTask, TaskCancelledError, type InputRequests } from '@mcpflow/client';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { serveHttp, memoryTasks, type HttpServingV2 } from '@mcpflow/core/v2';
import { eventually } from '../client/served-task-server';
import { RawTaskWire } from '../helpers/raw-task-wire';
import { connectHttp, openQuestions, POLL_MS, serveInProcess, startTask, type StartedTask } from '../helpers/task-serving';
import { seen, taskServer } from './task-workflows';

/**
 * Workflow tools run as MCP tasks (DESIGN §2.13), over HTTP on 127.0.0.1 (`serveHttp`, a server per
 * request) and in process through the SDK's stateless serving: what a user sees, through
 * `@mcpflow/client` over the SDK 2.x `Client`; and the wire itself (the shape of a
 * `CreateTaskResult`, error codes, malformed input, headers) through the raw wire helper.
 */

let serving: HttpServingV2;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  serving = await serveHttp(() => taskServer(), { port: 0, onerror: () => {} });
  closers.push(() => serving.close());
});
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});
beforeEach(() => (seen.length = 0));

/** A server's raw wire and an SDK 2.x `Client` of the same server. */
interface Served {
  readonly wire: RawTaskWire;
  readonly client: Client;
}

const transports: [string, () => Promise<Served>][] = [
  [
    'HTTP on 127.0.0.1',
    async () => {
      const client = await connectHttp(serving.url);
      closers.push(() => client.close());
      return { wire: RawTaskWire.overHttp(serving.url), client };
    },
  ],
  [
    'stateless serving in process',
    async () => {
      const inProcess = serveInProcess(() => taskServer());
      closers.push(() => inProcess.close());
      return { wire: new RawTaskWire(inProcess.fetch), client: await inProcess.connect() };
    },
  ],
];

/** Answers every question of a round with `answer`. */
const answerAll = (answer: unknown) => (requests: InputRequests) => Object.fromEntries(Object.keys(requests).map((key) => [key, answer]));

const DEPLOY_ANSWERS = {
  'deployed/replicas': { action: 'accept', content: { replicas: 3 } },
  'deployed/confirm': { action: 'accept', content: { confirm: true } },
};

describe.each(transports)('%s', (_label, connect) => {
  test('tools/call returns a CreateTaskResult that tasks/get finds at once; the task completes with the tool face result inlined', async () => {
    const { wire, client } = await connect();
    const created = (await wire.call('report', { project: 'atlas' })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(Number.isInteger(created.ttlMs) && Number.isInteger(created.pollIntervalMs)).toBe(true);
    expect(created).not.toHaveProperty('requestState');
    expect(created).not.toHaveProperty('result');
    expect(Buffer.from(created.taskId, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    const first = (await wire.request('tasks/get', { taskId: created.taskId })).result!;
    expect(first.taskId).toBe(created.taskId);

    const result = await resumeTask(client, created.taskId, { pollIntervalMs: POLL_MS });
    expect(result.structuredContent).toEqual({
      status: 'completed',
      outputs: { figures: { total: 42 }, summary: { summary: 'total 42' } },
    });
    expect(result).not.toHaveProperty('isError');
    expect(JSON.stringify(result.content)).toContain('the total is 42');
    const done = (await wire.request('tasks/get', { taskId: created.taskId })).result!;
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
    expect(done.result).toEqual(result);
    expect(done).not.toHaveProperty('requestState');
    expect(seen).toEqual(['fetch_figures atlas', 'summarize 42']);
  });

  test('a task asked with _meta["mcpflow/timing"]: its result carries each step\'s durationMs', async () => {
    const { client } = await connect();
    const heard: string[] = [];
    const result = await callTool(
      client,
      { name: 'report', arguments: { project: 'atlas' } },
      { meta: { 'mcpflow/timing': true }, pollIntervalMs: POLL_MS, onStatus: (task) => heard.push(task.taskId) },
    );
    expect(heard.length).toBeGreaterThan(0);
    const steps = (result._meta!['mcpflow/execution'] as { steps: { durationMs?: number }[] }).steps;
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(step.durationMs).toEqual(expect.any(Number));
  });

  test('a task asked for timing keeps it after a tasks/update round whose request does not ask', async () => {
    const { client } = await connect();
    const asked: string[] = [];
    const result = await callTool(
      client,
      { name: 'guarded_deploy', arguments: { project: 'atlas' } },
      {
        meta: { 'mcpflow/timing': true },
        pollIntervalMs: POLL_MS,
        onStatus: (task) => asked.push(task.status),
        onInput: () => DEPLOY_ANSWERS,
      },
    );
    expect(asked).toContain('input_required');
    const steps = (result._meta!['mcpflow/execution'] as { steps: { name: string; durationMs?: number }[] }).steps;
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(step).toMatchObject({ durationMs: expect.any(Number) });
  });

  // How a run's own ending reads on the task surface: `completed` (the call resolves: failed is for protocol errors), the ending in structuredContent.status.
  const endings = [
    {
      ending: 'a run that fails',
      tool: 'broken_report',
      args: {},
      answer: undefined,
      status: 'failed',
      isError: true,
      calls: ['break_down'],
    },
    {
      ending: "a declined question (a user's no is final)",
      tool: 'guarded_deploy',
      args: { project: 'atlas' },
      answer: { action: 'decline' },
      status: 'cancelled',
      isError: undefined,
      calls: ['fetch_figures atlas'],
    },
  ];
  test.each(endings)(
    '$ending: the task is completed, structuredContent.status $status',
    async ({ tool, args, answer, status, isError, calls }) => {
      const { client } = await connect();
      const heard: string[] = [];
      const result = await callTool(
        client,
        { name: tool, arguments: args },
        { pollIntervalMs: POLL_MS, onStatus: (task) => heard.push(task.status), ...(answer ? { onInput: answerAll(answer) } : {}) },
      );
      expect(heard.at(-1)).toBe('completed');
      expect(result.isError).toBe(isError);
      expect((result.structuredContent as { status: string }).status).toBe(status);
      expect(seen).toEqual(calls);
    },
  );

  test('askUser inside a task parks it in input_required; answers come one at a time, a wrong one is refused naming its key', async () => {
    const { wire, client } = await connect();
    const { taskId } = (await wire.call('guarded_deploy', { project: 'atlas' })).result!;
    const questions = await openQuestions(client, taskId);
    const keys = Object.keys(questions).sort();
    expect(keys).toEqual(['deployed/confirm', 'deployed/replicas']);
    expect(questions['deployed/confirm']).toMatchObject({ method: 'elicitation/create' });
    const parked = (await wire.request('tasks/get', { taskId })).result!;
    expect(parked.status).toBe('input_required');
    expect(parked).not.toHaveProperty('requestState');

    // The wrong type: refused, naming the key; the question stays open.
    const wrong = await wire.request('tasks/update', {
      taskId,
      inputResponses: { 'deployed/replicas': { action: 'accept', content: { replicas: 'three' } } },
    });
    expect(wrong.error?.code).toBe(-32602);
    expect(wrong.error?.message).toContain("'deployed/replicas'");
    expect(wrong.error?.message).toContain("'replicas' must be a number");
    expect(Object.keys((await wire.request('tasks/get', { taskId })).result!.inputRequests).sort()).toEqual(keys);

    // One answer: acked, the other question still open.
    const one = await wire.request('tasks/update', {
      taskId,
      inputResponses: { 'deployed/replicas': { action: 'accept', content: { replicas: 3 } } },
    });
    expect(one.result).toMatchObject({ resultType: 'complete' });
    expect(one.result).not.toHaveProperty('taskId');
    const half = (await wire.request('tasks/get', { taskId })).result!;
    expect(half.status).toBe('input_required');
    expect(Object.keys(half.inputRequests)).toEqual(['deployed/confirm']);
    expect(seen).toEqual(['fetch_figures atlas']);

    // The last answer (as a user gives it, through resumeTask) resumes the run; the completed step did not run again.
    const asked: string[] = [];
    const result = await resumeTask(client, taskId, {
      pollIntervalMs: POLL_MS,
      onInput: (requests) => {
        asked.push(...Object.keys(requests));
        return { 'deployed/confirm': { action: 'accept', content: { confirm: true } } };
      },
    });
    expect(asked).toEqual(['deployed/confirm']);
    expect((result.structuredContent as { outputs: Record<string, unknown> }).outputs.deployed).toEqual({ deployed: true });
    expect(seen).toEqual(['fetch_figures atlas', 'deploy atlas 3 true']);
  });

  test("aborting the call cancels the task: the running step's signal aborts, later steps never start, the task reads cancelled", async () => {
    const { client } = await connect();
    const stop = new AbortController();
    let taskId: string | undefined;
    const call = callTool(
      client,
      { name: 'long_wait', arguments: {} },
      { signal: stop.signal, pollIntervalMs: POLL_MS, onStatus: (task) => (taskId ??= task.taskId) },
    );
    await eventually(() => taskId !== undefined && seen.includes('wait_forever started'));
    stop.abort(new Error('the user gave up'));
    await expect(call).rejects.toThrow('the user gave up');
    await eventually(() => seen.includes('wait_forever aborted'));
    expect(seen).not.toContain('after_wait');
    await expect(resumeTask(client, taskId!, { pollIntervalMs: POLL_MS })).rejects.toBeInstanceOf(TaskCancelledError);
  });

  test('tasks/cancel is acked without a status, the task reads cancelled, and cancel is idempotent', async () => {
    const { wire } = await connect();
    const { taskId } = (await wire.call('long_wait', {})).result!;
    const ack = await wire.request('tasks/cancel', { taskId });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(ack.result).not.toHaveProperty('status');
    expect((await wire.request('tasks/get', { taskId })).result!.status).toBe('cancelled');
    expect((await wire.request('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await wire.request('tasks/get', { taskId })).result!.status).toBe('cancelled');
  });

  test('bad input gets clear errors and the server keeps serving', async () => {
    const { wire, client } = await connect();
    const unknown = await wire.request('tasks/get', { taskId: 'no-such-task' });
    expect(unknown.error).toMatchObject({ code: -32602 });
    expect(unknown.error!.message).toContain("no task 'no-such-task'");
    expect((await wire.request('tasks/get', {})).error?.code).toBe(-32602);
    expect((await wire.request('tasks/result', { taskId: 'x' })).error?.code).toBe(-32601);
    expect((await wire.request('tasks/list', {})).error?.code).toBe(-32601);

    // Without the extension: a required task tool is -32021 naming the capability; an optional one runs in the request.
    const required = await wire.call('broken_report', {}, { tasks: false });
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    expect(required.error!.message).toContain('capabilities.extensions');
    const plain = (await wire.call('report', { project: 'vega' }, { tasks: false })).result!;
    expect(plain.resultType).toBe('complete');
    expect(plain.structuredContent).toMatchObject({ status: 'completed' });
    expect((await wire.request('tasks/get', { taskId: 'x' }, { tasks: false })).error?.code).toBe(-32021);

    // A finished task takes no answers; answers for keys never asked are ignored (and named in _meta).
    const { taskId } = (await wire.call('report', { project: 'atlas' })).result!;
    await resumeTask(client, taskId, { pollIntervalMs: POLL_MS });
    const late = await wire.request('tasks/update', { taskId, inputResponses: { x: { action: 'accept', content: {} } } });
    expect(late.error).toMatchObject({ code: -32602 });
    expect(late.error!.message).toContain('is completed');

    const asking = (await wire.call('guarded_deploy', { project: 'atlas' })).result!.taskId;
    await openQuestions(client, asking);
    const stray = await wire.request('tasks/update', {
      taskId: asking,
      inputResponses: { 'never/asked': { action: 'accept', content: {} } },
    });
    expect(stray.result).toMatchObject({ resultType: 'complete', _meta: { 'mcpflow/task': { ignoredInputResponses: ['never/asked'] } } });
    // inputResponses that is not an object is refused naming the field; a __proto__ key is listed among the ignored ones.
    for (const [given, named] of [
      [[{ action: 'accept', content: {} }], 'an array'],
      ['accept', 'a string'],
      [3, 'a number'],
    ] as const) {
      const malformed = await wire.request('tasks/update', { taskId: asking, inputResponses: given });
      expect(malformed.error).toEqual({
        code: -32602,
        message: `tasks/update: params.inputResponses must be an object of answers keyed by the ids of inputRequests, not ${named}.`,
      });
    }
    const proto = await wire.request('tasks/update', {
      taskId: asking,
      inputResponses: JSON.parse('{"__proto__": {"action": "accept", "content": {}}}') as object,
    });
    expect(proto.result).toMatchObject({ resultType: 'complete', _meta: { 'mcpflow/task': { ignoredInputResponses: ['__proto__'] } } });
    expect((await wire.request('tasks/get', { taskId: asking })).result!.status).toBe('input_required');
    await wire.request('tasks/cancel', { taskId: asking });

    // A bad argument is InvalidParams before any task.
    expect((await wire.call('report', { project: 7 })).error?.code).toBe(-32602);
    expect((await wire.call('report', { project: 'still-serving' })).result!.resultType).toBe('task');
  });

  test('an Mcp-Name header that does not match taskId is -32020', async () => {
    const { wire } = await connect();
    const answer = await wire.request('tasks/get', { taskId: 'abc' }, { headers: { 'mcp-name': 'another' } });
    expect(answer.error?.code).toBe(-32020);
  });
});

describe('the principal', () => {
  const alice = { token: 't1', clientId: 'app', scopes: [], extra: { sub: 'alice' } };
  const bob = { token: 't2', clientId: 'app', scopes: [], extra: { sub: 'bob' } };

  test("a task answers only to the principal that created it; another's id gets the same -32602 as an unknown one", async () => {
    const served = serveInProcess(() => taskServer());
    closers.push(() => served.close());
    const wire = new RawTaskWire(served.fetch);
    const owner = await served.connect({ authInfo: alice });
    const { taskId, stop } = await startTask(owner, { name: 'long_wait', arguments: {} });
    const other = taskId.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A'));
    for (const stranger of [await served.connect({ authInfo: bob }), await served.connect()]) {
      const foreign = (await resumeTask(stranger, taskId).catch((error: unknown) => error)) as ProtocolError;
      const unknown = (await resumeTask(stranger, other).catch((error: unknown) => error)) as ProtocolError;
      expect(foreign).toBeInstanceOf(ProtocolError);
      expect(foreign.code).toBe(-32602);
      expect(foreign.message.replace(taskId, 'ID')).toBe(unknown.message.replace(other, 'ID'));
    }
    // A stranger's cancel is refused as for an unknown task, and the owner's task runs on.
    for (const stranger of [{ authInfo: bob }, {}])
      expect((await wire.request('tasks/cancel', { taskId }, stranger)).error?.code).toBe(-32602);
    expect((await wire.request('tasks/get', { taskId }, { authInfo: alice })).result!.status).toBe('working');
    expect(await stop()).toEqual(new Error('stopped by the test'));
    await expect(resumeTask(owner, taskId)).rejects.toBeInstanceOf(TaskCancelledError);
  });
});

/** Calls long_wait (a step that waits until it is aborted); `stop()` cancels it. */
async function longWait(client: Client): Promise<StartedTask> {
  const task = await startTask(client, { name: 'long_wait', arguments: {} });
  return {
    ...task,
    async stop() {
      const reason = await task.stop();
      expect(reason).toEqual(new Error('stopped by the test'));
      return reason;
    },
  };
}

describe('task rounds under maxConcurrentRuns', () => {
  test('with a cap of 2, five tasks run two rounds at a time; the others wait for a place and run once one frees', async () => {
    const store = memoryTasks();
    const served = serveInProcess(() => taskServer(store, { maxConcurrentRuns: 2 }));
    closers.push(() => served.close());
    const client = await served.connect();
    const tasks: StartedTask[] = [];
    for (let index = 0; index < 5; index++) tasks.push(await longWait(client));
    const started = () => seen.filter((entry) => entry === 'wait_forever started').length;
    await eventually(() => started() >= 2);
    // Each cancel frees a place, and one waiting round takes it.
    for (let freed = 1; freed <= 3; freed++) {
      const running = seen.length;
      await tasks[freed - 1].stop();
      await eventually(() => started() >= 2 + freed && seen.length > running);
    }
    let executing = 0;
    let most = 0;
    for (const entry of seen) {
      if (entry === 'wait_forever started') most = Math.max(most, ++executing);
      if (entry === 'wait_forever aborted') executing -= 1;
    }
    expect(most).toBe(2);
    expect(started()).toBe(5);
    for (const task of tasks.slice(3)) await task.stop();
    const plain = await callTool(client, { name: 'report', arguments: { project: 'x' } }, { task: 'never' });
    expect(plain.structuredContent).toMatchObject({ status: 'completed' });
  });
});

describe('memoryTasks limits', () => {
  test('over maxTasks, tools/call is refused with an error naming the option; the server keeps serving', async () => {
    const store = memoryTasks({ maxTasks: 1 });
    const served = serveInProcess(() => taskServer(store));
    closers.push(() => served.close());
    const client = await served.connect();
    const first = await longWait(client);
    const refused = (await callTool(client, { name: 'long_wait', arguments: {} }).catch((error: unknown) => error)) as ProtocolError;
    expect(refused).toBeInstanceOf(ProtocolError);
    expect(refused.message).toContain('maxTasks');
    expect(refused.message).toContain('at most 1 tasks');
    expect((await new RawTaskWire(served.fetch).request('tasks/get', { taskId: first.taskId })).result!.status).toBe('working');
    await first.stop();
    const plain = await callTool(client, { name: 'report', arguments: { project: 'x' } }, { task: 'never' });
    expect(plain.structuredContent).toMatchObject({ status: 'completed' });
  });

  test('over maxTaskBytes, tools/call is refused with an error naming the option; smaller arguments make a task', async () => {
    const store = memoryTasks({ maxTaskBytes: 4096 });
    const served = serveInProcess(() => taskServer(store));
    closers.push(() => served.close());
    const client = await served.connect();
    await expect(callTool(client, { name: 'report', arguments: { project: 'x'.repeat(8192) } })).rejects.toThrow(
      /this task would store \d+ bytes \(its sealed arguments\), over memoryTasks maxTaskBytes \(4096\)/,
    );
    const heard: string[] = [];
    const small = await callTool(
      client,
      { name: 'report', arguments: { project: 'x' } },
      { pollIntervalMs: POLL_MS, onStatus: (task) => heard.push(task.status) },
    );
    expect([heard[0], heard.at(-1)]).toEqual(['working', 'completed']); // between them, the status message of each step
    expect(small.structuredContent).toMatchObject({ status: 'completed' });
  });

  test('options out of range throw, naming the option', () => {
    expect(() => memoryTasks({ maxTaskBytes: 0 })).toThrow('maxTaskBytes must be a positive integer');
    expect(() => memoryTasks({ maxTasks: 0 })).toThrow('maxTasks must be a positive integer');
    expect(() => memoryTasks({ ttlMs: 1.5 })).toThrow('ttlMs must be a positive integer');
  });
});

describe('an MRTR round before the task', () => {
  test('a workflow whose first step asks puts the question in the request; the retry that answers it becomes the task, carrying the answer', async () => {
    const served = serveInProcess(() => taskServer());
    closers.push(() => served.close());
    const wire = new RawTaskWire(served.fetch);
    const round = (await wire.call('ask_first', { project: 'atlas' })).result!;
    expect(round.resultType).toBe('input_required');
    expect(round).not.toHaveProperty('taskId');
    const inputResponses = {
      'deployed/replicas': { action: 'accept', content: { replicas: 2 } },
      'deployed/confirm': { action: 'accept', content: { confirm: true } },
    };
    const retry = { name: 'ask_first', arguments: { project: 'atlas' }, inputResponses };
    const created = (await wire.request('tools/call', { ...retry, requestState: round.requestState })).result!;
    expect(created.resultType).toBe('task');
    expect(created).not.toHaveProperty('requestState');
    const result = await resumeTask(await served.connect(), created.taskId, { pollIntervalMs: POLL_MS });
    expect(result.structuredContent).toMatchObject({ status: 'completed', outputs: { deployed: { deployed: true } } });
    expect(seen).toEqual(['deploy atlas 2 true']);

    const forged = await wire.request('tools/call', { ...retry, requestState: `AAAA${round.requestState.slice(4)}` });
    expect(forged.error?.code).toBe(-32602);
  });
});
