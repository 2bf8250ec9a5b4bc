import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ProtocolError, ProtocolErrorCode, acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { Bind, Step, Workflow, defineTool } from '@mcpflow/decorators';
import { WorkflowServer, memoryTasks } from '@mcpflow/core/v2';
import { WorkflowServer as WorkflowServerV1 } from '@mcpflow/core/v1';
import { TaskClient } from './task-client';

/**
 * Plain tools as tasks (`defineTool(name, { …, task }, handler)`): a handler that settles before
 * the event loop turns answers in the request (its result, or an MRTR round); one that waits runs
 * as a task; inside a task, `input_required` parks it and the answers call the handler again; a
 * protocol error is a `failed` task. On SDK 1.x a task option is an error that names the fix.
 */

const calls: string[] = [];
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

const build = defineTool(
  'build',
  { description: 'Builds a target', inputSchema: { target: z.string() }, task: 'optional' },
  async ({ target }, context) => {
    calls.push(`build ${target}`);
    if (target === 'now') return text('built at once');
    await sleep(20, undefined, { signal: context.mcpReq?.signal });
    if (target === 'crash') throw new ProtocolError(ProtocolErrorCode.InternalError, 'the builder crashed');
    return { ...text(`built ${target}`), structuredContent: { target } };
  },
);

const approve = defineTool('approve', { description: 'Needs an approver', inputSchema: {}, task: 'required' }, async (_args, context) => {
  const responses = (context.mcpReq as { inputResponses?: Record<string, unknown> }).inputResponses;
  await sleep(5);
  const approver = acceptedContent<{ name: string }>(responses as never, 'approver')?.name;
  calls.push(`approve ${approver ?? '?'}`);
  if (typeof approver !== 'string') {
    return inputRequired({
      inputRequests: {
        approver: inputRequired.elicit({
          message: 'Who approves?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        }),
      },
    }) as never;
  }
  return text(`approved by ${approver}`);
});

const hidden = defineTool(
  'hidden_build',
  { description: 'Builds for workflows only', inputSchema: { target: z.string() }, task: 'required', visibility: 'workflow' },
  async ({ target }) => {
    calls.push(`hidden ${target}`);
    return text(`built ${target}`);
  },
);

const server = () => new WorkflowServer({ name: 'plain-tasks', version: '1.0.0' }).registerDefinitions(build, approve, hidden);

let client: TaskClient;
let close: () => Promise<void>;
beforeAll(() => ({ client, close } = TaskClient.inProcess(server)));
afterAll(() => close());
beforeEach(() => (calls.length = 0));

test('a handler that waits runs as a task: completed with its own result', async () => {
  const { taskId, resultType } = (await client.call('build', { target: 'app' })).result!;
  expect(resultType).toBe('task');
  const done = await client.until(taskId);
  expect(done).toMatchObject({
    status: 'completed',
    result: { content: [{ type: 'text', text: 'built app' }], structuredContent: { target: 'app' } },
  });
  expect(calls).toEqual(['build app']);
});

test('a handler that settles at once answers in the request, no task', async () => {
  const answer = (await client.call('build', { target: 'now' })).result!;
  expect(answer.resultType).toBe('complete');
  expect(answer.content).toEqual([{ type: 'text', text: 'built at once' }]);
});

test('a protocol error thrown in a task is a failed task with the JSON-RPC error, and no result', async () => {
  const { taskId } = (await client.call('build', { target: 'crash' })).result!;
  const done = await client.until(taskId);
  expect(done.status).toBe('failed');
  expect(done.error).toEqual({ code: -32603, message: 'the builder crashed' });
  expect(done).not.toHaveProperty('result');
});

test('input_required inside a task parks it; the answer calls the handler again with it', async () => {
  const { taskId } = (await client.call('approve', {})).result!;
  const parked = await client.until(taskId, (task) => task.status !== 'working');
  expect(parked.status).toBe('input_required');
  expect(Object.keys(parked.inputRequests)).toEqual(['approver']);
  await client.request('tasks/update', { taskId, inputResponses: { approver: { action: 'accept', content: { name: 'Ada' } } } });
  const done = await client.until(taskId);
  expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'approved by Ada' }] } });
  expect(calls).toEqual(['approve ?', 'approve Ada']);
});

test('bad arguments are InvalidParams before any task', async () => {
  const answer = await client.call('build', { target: 3 });
  expect(answer.error?.code).toBe(-32602);
  expect(answer.error?.message).toContain('Tool build');
  expect(calls).toEqual([]);
});

@Workflow({ name: 'nightly', description: 'Nightly build', expose: { tool: { task: 'optional' } } })
class Nightly {
  @Step({ tool: 'compile' })
  @Bind('compiled')
  compiled!: unknown;
}

test('on SDK 1.x, a task option is an error at use() and registerDefinitions() that names the fix', () => {
  const v1 = new WorkflowServerV1({ name: 'v1', version: '1.0.0' });
  v1.registerTool('compile', { inputSchema: {} }, async () => text('ok'));
  expect(() => v1.use(Nightly)).toThrow(
    expect.objectContaining({ code: 91056, message: expect.stringContaining("serve it with WorkflowServer from '@mcpflow/core/v2'") }),
  );
  expect(() => v1.registerDefinitions(build)).toThrow(
    "Tool build is defined with task: 'optional', but this server (@mcpflow/core/v1) serves no MCP tasks",
  );
  expect(() => new WorkflowServerV1({ name: 'v1', version: '1.0.0' }).registerDefinitions(build)).toThrow(
    'remove the task option from defineTool',
  );
});

test('a call refused for want of room in the store stops the handler it had started', async () => {
  const aborted: string[] = [];
  const wait = defineTool(
    'wait_long',
    { description: 'Waits', inputSchema: { id: z.string() }, task: 'optional' },
    async ({ id }, context) => {
      const signal = context.mcpReq!.signal!;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      aborted.push(id);
      return text('stopped');
    },
  );
  const store = memoryTasks({ maxTasks: 1 });
  const full = TaskClient.inProcess(() =>
    new WorkflowServer({ name: 'full', version: '1.0.0' }, { tasks: store }).registerDefinitions(wait),
  );
  try {
    const first = (await full.client.call('wait_long', { id: 'first' })).result!;
    const refused = await full.client.call('wait_long', { id: 'second' });
    expect(refused.error?.message).toContain('maxTasks');
    await full.client.until(first.taskId, () => aborted.includes('second'));
    expect(aborted).toEqual(['second']);
    await full.client.request('tasks/cancel', { taskId: first.taskId });
  } finally {
    await full.close();
  }
});

test('a result bigger than maxTraceBytes is a failed task whose error names the option; the server keeps serving', async () => {
  const big = defineTool('big_report', { description: 'A big report', inputSchema: {}, task: 'optional' }, async () => {
    await sleep(5);
    return text('x'.repeat(20_000));
  });
  const served = TaskClient.inProcess(() =>
    new WorkflowServer({ name: 'big', version: '1.0.0' }, { maxTraceBytes: 10_000 }).registerDefinitions(big, build),
  );
  try {
    const { taskId } = (await served.client.call('big_report', {})).result!;
    const done = await served.client.until(taskId);
    expect(done.status).toBe('failed');
    expect(done.error.message).toContain("over this server's maxTraceBytes (10000)");
    const next = (await served.client.call('build', { target: 'app' })).result!;
    expect((await served.client.until(next.taskId)).status).toBe('completed');
  } finally {
    await served.close();
  }
});

test('a private step tool is no task for a client: with or without the extension, the answer of an unknown tool, and it never runs', async () => {
  const unknown = await client.call('no_such_tool', { target: 'x' });
  for (const tasks of [true, false]) {
    const answer = await client.call('hidden_build', { target: 'from-client' }, { tasks });
    expect(answer.result?.taskId).toBeUndefined();
    expect(answer.result).toBeUndefined();
    expect(JSON.stringify(answer.error).replaceAll('hidden_build', 'no_such_tool')).toBe(JSON.stringify(unknown.error));
  }
  expect(calls).toEqual([]);
});
