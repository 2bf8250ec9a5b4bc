import { serveHttp, memoryTasks, type HttpServingV2 } from '@mcpflow/core/v2';
import { TaskClient } from './task-client';
import { seen, taskServer } from './task-workflows';

/**
 * Workflow tools run as MCP tasks (DESIGN §2.13) through the wire a client sees: over HTTP on
 * 127.0.0.1 (`serveHttp`, a server per request) and in process through the SDK's stateless serving.
 */

let serving: HttpServingV2;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  serving = await serveHttp(() => taskServer(), { port: 0, onerror: () => {} });
  closers.push(() => serving.close());
});
afterAll(async () => {
  for (const close of closers) await close();
});
beforeEach(() => (seen.length = 0));

const transports = [
  ['HTTP on 127.0.0.1', () => TaskClient.overHttp(serving.url)],
  [
    'stateless serving in process',
    () => {
      const { client, close } = TaskClient.inProcess(() => taskServer());
      closers.push(close);
      return client;
    },
  ],
] as const;

describe.each(transports)('%s', (_label, connect) => {
  test('tools/call returns a CreateTaskResult that tasks/get finds at once; the task completes with the tool face result inlined', async () => {
    const client = connect();
    const created = (await client.call('report', { project: 'atlas' })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 1000 });
    expect(Number.isInteger(created.ttlMs) && Number.isInteger(created.pollIntervalMs)).toBe(true);
    expect(created).not.toHaveProperty('requestState');
    expect(created).not.toHaveProperty('result');
    expect(Buffer.from(created.taskId, 'base64url').length).toBeGreaterThanOrEqual(16);
    expect(new Date(created.createdAt).toISOString()).toBe(created.createdAt);

    const first = (await client.request('tasks/get', { taskId: created.taskId })).result!;
    expect(first.taskId).toBe(created.taskId);

    const done = await client.until(created.taskId);
    expect(done).toMatchObject({ resultType: 'complete', status: 'completed' });
    expect(done.result.structuredContent).toEqual({
      status: 'completed',
      outputs: { figures: { total: 42 }, summary: { summary: 'total 42' } },
    });
    expect(done.result).not.toHaveProperty('isError');
    expect(JSON.stringify(done.result.content)).toContain('the total is 42');
    expect(done).not.toHaveProperty('requestState');
    expect(seen).toEqual(['fetch_figures atlas', 'summarize 42']);
  });

  test('a task asked with _meta["mcpflow/timing"]: its result carries each step\'s durationMs', async () => {
    const client = connect();
    const created = (await client.call('report', { project: 'atlas' }, { meta: { 'mcpflow/timing': true } })).result!;
    const done = await client.until(created.taskId);
    const steps = (done.result._meta['mcpflow/execution'] as { steps: { durationMs?: number }[] }).steps;
    expect(steps.length).toBeGreaterThan(0);
    for (const step of steps) expect(step.durationMs).toEqual(expect.any(Number));
  });

  test('a task asked for timing keeps it after a tasks/update round whose request does not ask', async () => {
    const client = connect();
    const { taskId } = (await client.call('guarded_deploy', { project: 'atlas' }, { meta: { 'mcpflow/timing': true } })).result!;
    await client.until(taskId, (task) => task.status === 'input_required');
    const inputResponses = {
      'deployed/replicas': { action: 'accept', content: { replicas: 3 } },
      'deployed/confirm': { action: 'accept', content: { confirm: true } },
    };
    await client.request('tasks/update', { taskId, inputResponses });
    const done = await client.until(taskId);
    expect(done.status).toBe('completed');
    const steps = (done.result._meta['mcpflow/execution'] as { steps: { name: string; durationMs?: number }[] }).steps;
    for (const step of steps) expect(step).toMatchObject({ durationMs: expect.any(Number) });
  });

  // How a run's own ending reads on the task surface: `completed`, the ending in structuredContent.status (failed is for protocol errors).
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
      const client = connect();
      const { taskId } = (await client.call(tool, args)).result!;
      if (answer) {
        const parked = await client.until(taskId, (task) => task.status !== 'working');
        const inputResponses = Object.fromEntries(Object.keys(parked.inputRequests).map((key) => [key, answer]));
        expect((await client.request('tasks/update', { taskId, inputResponses })).result).toMatchObject({ resultType: 'complete' });
      }
      const done = await client.until(taskId);
      expect(done.status).toBe('completed');
      expect(done.result.isError).toBe(isError);
      expect(done.result.structuredContent.status).toBe(status);
      expect(done).not.toHaveProperty('error');
      expect(seen).toEqual(calls);
    },
  );

  test('askUser inside a task parks it in input_required; answers come one at a time, a wrong one is refused naming its key', async () => {
    const client = connect();
    const { taskId } = (await client.call('guarded_deploy', { project: 'atlas' })).result!;
    const parked = await client.until(taskId, (task) => task.status !== 'working');
    expect(parked.status).toBe('input_required');
    const keys = Object.keys(parked.inputRequests).sort();
    expect(keys).toEqual(['deployed/confirm', 'deployed/replicas']);
    expect(parked.inputRequests['deployed/confirm']).toMatchObject({ method: 'elicitation/create' });
    expect(parked).not.toHaveProperty('requestState');

    // The wrong type: refused, naming the key; the question stays open.
    const wrong = await client.request('tasks/update', {
      taskId,
      inputResponses: { 'deployed/replicas': { action: 'accept', content: { replicas: 'three' } } },
    });
    expect(wrong.error?.code).toBe(-32602);
    expect(wrong.error?.message).toContain("'deployed/replicas'");
    expect(wrong.error?.message).toContain("'replicas' must be a number");
    expect(Object.keys((await client.request('tasks/get', { taskId })).result!.inputRequests).sort()).toEqual(keys);

    // One answer: acked, the other question still open.
    const one = await client.request('tasks/update', {
      taskId,
      inputResponses: { 'deployed/replicas': { action: 'accept', content: { replicas: 3 } } },
    });
    expect(one.result).toMatchObject({ resultType: 'complete' });
    expect(one.result).not.toHaveProperty('taskId');
    const half = (await client.request('tasks/get', { taskId })).result!;
    expect(half.status).toBe('input_required');
    expect(Object.keys(half.inputRequests)).toEqual(['deployed/confirm']);
    expect(seen).toEqual(['fetch_figures atlas']);

    // The last answer resumes the run; the completed step did not run again.
    await client.request('tasks/update', {
      taskId,
      inputResponses: { 'deployed/confirm': { action: 'accept', content: { confirm: true } } },
    });
    const done = await client.until(taskId);
    expect(done.status).toBe('completed');
    expect(done.result.structuredContent.outputs.deployed).toEqual({ deployed: true });
    expect(seen).toEqual(['fetch_figures atlas', 'deploy atlas 3 true']);
  });

  test('tasks/cancel reaches the running step (its signal aborts), later steps never start, the task reads cancelled; cancel is idempotent', async () => {
    const client = connect();
    const { taskId } = (await client.call('long_wait', {})).result!;
    await client.until(taskId, () => seen.includes('wait_forever started'));
    const ack = await client.request('tasks/cancel', { taskId });
    expect(ack.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect(ack.result).not.toHaveProperty('status');
    const done = await client.until(taskId);
    expect(done.status).toBe('cancelled');
    await client.until(taskId, () => seen.includes('wait_forever aborted'));
    expect(seen).not.toContain('after_wait');
    expect((await client.request('tasks/cancel', { taskId })).result).toMatchObject({ resultType: 'complete' });
    expect((await client.request('tasks/get', { taskId })).result!.status).toBe('cancelled');
  });

  test('bad input gets clear errors and the server keeps serving', async () => {
    const client = connect();
    const unknown = await client.request('tasks/get', { taskId: 'no-such-task' });
    expect(unknown.error).toMatchObject({ code: -32602 });
    expect(unknown.error!.message).toContain("no task 'no-such-task'");
    expect((await client.request('tasks/get', {})).error?.code).toBe(-32602);
    expect((await client.request('tasks/result', { taskId: 'x' })).error?.code).toBe(-32601);
    expect((await client.request('tasks/list', {})).error?.code).toBe(-32601);

    // Without the extension: a required task tool is -32021 naming the capability; an optional one runs in the request.
    const required = await client.call('broken_report', {}, { tasks: false });
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
    expect(required.error!.message).toContain('capabilities.extensions');
    const plain = (await client.call('report', { project: 'vega' }, { tasks: false })).result!;
    expect(plain.resultType).toBe('complete');
    expect(plain.structuredContent).toMatchObject({ status: 'completed' });
    expect((await client.request('tasks/get', { taskId: 'x' }, { tasks: false })).error?.code).toBe(-32021);

    // A finished task takes no answers; answers for keys never asked are ignored (and named in _meta).
    const { taskId } = (await client.call('report', { project: 'atlas' })).result!;
    await client.until(taskId);
    const late = await client.request('tasks/update', { taskId, inputResponses: { x: { action: 'accept', content: {} } } });
    expect(late.error).toMatchObject({ code: -32602 });
    expect(late.error!.message).toContain('is completed');

    const asking = (await client.call('guarded_deploy', { project: 'atlas' })).result!.taskId;
    await client.until(asking, (task) => task.status === 'input_required');
    const stray = await client.request('tasks/update', {
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
      const malformed = await client.request('tasks/update', { taskId: asking, inputResponses: given });
      expect(malformed.error).toEqual({
        code: -32602,
        message: `tasks/update: params.inputResponses must be an object of answers keyed by the ids of inputRequests, not ${named}.`,
      });
    }
    const proto = await client.request('tasks/update', {
      taskId: asking,
      inputResponses: JSON.parse('{"__proto__": {"action": "accept", "content": {}}}') as object,
    });
    expect(proto.result).toMatchObject({ resultType: 'complete', _meta: { 'mcpflow/task': { ignoredInputResponses: ['__proto__'] } } });
    expect((await client.request('tasks/get', { taskId: asking })).result!.status).toBe('input_required');
    await client.request('tasks/cancel', { taskId: asking });

    // A bad argument is InvalidParams before any task.
    expect((await client.call('report', { project: 7 })).error?.code).toBe(-32602);
    expect((await client.call('report', { project: 'still-serving' })).result!.resultType).toBe('task');
  });

  test('an Mcp-Name header that does not match taskId is -32020', async () => {
    const client = connect();
    const answer = await client.request('tasks/get', { taskId: 'abc' }, { headers: { 'mcp-name': 'another' } });
    expect(answer.error?.code).toBe(-32020);
  });
});

describe('the principal', () => {
  const alice = { token: 't1', clientId: 'app', scopes: [], extra: { sub: 'alice' } };
  const bob = { token: 't2', clientId: 'app', scopes: [], extra: { sub: 'bob' } };

  test("a task answers only to the principal that created it; another's id gets the same -32602 as an unknown one", async () => {
    const { client, close } = TaskClient.inProcess(() => taskServer());
    closers.push(close);
    const taskId: string = (await client.call('long_wait', {}, { authInfo: alice })).result!.taskId;
    expect((await client.request('tasks/get', { taskId }, { authInfo: alice })).result!.taskId).toBe(taskId);
    for (const stranger of [{ authInfo: bob }, {}]) {
      const foreign = await client.request('tasks/get', { taskId }, stranger);
      const unknown = await client.request('tasks/get', { taskId: taskId.replace(/^./, (c: string) => (c === 'A' ? 'B' : 'A')) }, stranger);
      expect(foreign.error?.code).toBe(-32602);
      expect(foreign.error!.message.replace(taskId, 'ID')).toBe(unknown.error!.message.replace(/'[^']+'/, "'ID'"));
      expect((await client.request('tasks/cancel', { taskId }, stranger)).error?.code).toBe(-32602);
    }
    expect((await client.request('tasks/get', { taskId }, { authInfo: alice })).result!.status).toBe('working');
    await client.request('tasks/cancel', { taskId }, { authInfo: alice });
  });
});

describe('task rounds under maxConcurrentRuns', () => {
  test('with a cap of 2, five tasks run two rounds at a time; the others wait for a place and run once one frees', async () => {
    const store = memoryTasks();
    const { client, close } = TaskClient.inProcess(() => taskServer(store, { maxConcurrentRuns: 2 }));
    closers.push(close);
    const taskIds: string[] = [];
    for (let index = 0; index < 5; index++) taskIds.push((await client.call('long_wait', {})).result!.taskId);
    const started = () => seen.filter((entry) => entry === 'wait_forever started').length;
    await client.until(taskIds[0], () => started() >= 2);
    // Each cancel frees a place, and one waiting round takes it.
    for (let freed = 1; freed <= 3; freed++) {
      const running = seen.length;
      await client.request('tasks/cancel', { taskId: taskIds[freed - 1] });
      await client.until(taskIds[4], () => started() >= 2 + freed && seen.length > running);
    }
    let executing = 0;
    let most = 0;
    for (const entry of seen) {
      if (entry === 'wait_forever started') most = Math.max(most, ++executing);
      if (entry === 'wait_forever aborted') executing -= 1;
    }
    expect(most).toBe(2);
    expect(started()).toBe(5);
    for (const taskId of taskIds) await client.request('tasks/cancel', { taskId });
    expect((await client.call('report', { project: 'x' }, { tasks: false })).result!.resultType).toBe('complete');
  });
});

describe('memoryTasks limits', () => {
  test('over maxTasks, tools/call is refused with an error naming the option; the server keeps serving', async () => {
    const store = memoryTasks({ maxTasks: 1 });
    const { client, close } = TaskClient.inProcess(() => taskServer(store));
    closers.push(close);
    const first = (await client.call('long_wait', {})).result!;
    const refused = await client.call('long_wait', {});
    expect(refused.error?.message).toContain('maxTasks');
    expect(refused.error?.message).toContain('at most 1 tasks');
    expect((await client.request('tasks/get', { taskId: first.taskId })).result!.status).toBe('working');
    await client.request('tasks/cancel', { taskId: first.taskId });
    expect((await client.call('report', { project: 'x' }, { tasks: false })).result!.resultType).toBe('complete');
  });

  test('over maxTaskBytes, tools/call is refused with an error naming the option; smaller arguments make a task', async () => {
    const store = memoryTasks({ maxTaskBytes: 4096 });
    const { client, close } = TaskClient.inProcess(() => taskServer(store));
    closers.push(close);
    const refused = await client.call('report', { project: 'x'.repeat(8192) });
    expect(refused.error?.message).toMatch(
      /this task would store \d+ bytes \(its sealed arguments\), over memoryTasks maxTaskBytes \(4096\)/,
    );
    const small = (await client.call('report', { project: 'x' })).result!;
    expect((await client.until(small.taskId)).status).toBe('completed');
  });

  test('options out of range throw, naming the option', () => {
    expect(() => memoryTasks({ maxTaskBytes: 0 })).toThrow('maxTaskBytes must be a positive integer');
    expect(() => memoryTasks({ maxTasks: 0 })).toThrow('maxTasks must be a positive integer');
    expect(() => memoryTasks({ ttlMs: 1.5 })).toThrow('ttlMs must be a positive integer');
  });
});

describe('an MRTR round before the task', () => {
  test('a workflow whose first step asks puts the question in the request; the retry that answers it becomes the task, carrying the answer', async () => {
    const { client, close } = TaskClient.inProcess(() => taskServer());
    closers.push(close);
    const round = (await client.call('ask_first', { project: 'atlas' })).result!;
    expect(round.resultType).toBe('input_required');
    expect(round).not.toHaveProperty('taskId');
    const inputResponses = {
      'deployed/replicas': { action: 'accept', content: { replicas: 2 } },
      'deployed/confirm': { action: 'accept', content: { confirm: true } },
    };
    const retry = { name: 'ask_first', arguments: { project: 'atlas' }, inputResponses };
    const created = (await client.request('tools/call', { ...retry, requestState: round.requestState })).result!;
    expect(created.resultType).toBe('task');
    expect(created).not.toHaveProperty('requestState');
    const done = await client.until(created.taskId);
    expect(done.result.structuredContent).toMatchObject({ status: 'completed', outputs: { deployed: { deployed: true } } });
    expect(seen).toEqual(['deploy atlas 2 true']);

    const forged = await client.request('tools/call', { ...retry, requestState: `AAAA${round.requestState.slice(4)}` });
    expect(forged.error?.code).toBe(-32602);
  });
});
