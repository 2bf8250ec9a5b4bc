import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ProtocolError, ProtocolErrorCode, acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { Bind, Step, Workflow, defineTool } from '@mcpflow/decorators';
import { WorkflowServer, memoryTasks } from '@mcpflow/core/v2';
import { WorkflowServer as WorkflowServerV1 } from '@mcpflow/core/v1';
import { callTool, TaskFailedError, type InputHandler, type TaskStatusWord } from '@mcpflow/client';
import { ProtocolError as ClientProtocolError, type Client } from '@modelcontextprotocol/client';
import { eventually } from '../client/served-task-server';
import { RawTaskWire } from '../helpers/raw-task-wire';
import { POLL_MS, serveInProcess, type InProcessServing } from '../helpers/task-serving';

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

let serving: InProcessServing;
let client: Client;
beforeAll(async () => {
  serving = serveInProcess(server);
  client = await serving.connect();
});
afterAll(() => serving.close());
beforeEach(() => (calls.length = 0));

/** Calls `tool` through `@mcpflow/client`, with the statuses of its task (none when it ran in the request). */
async function call(on: Client, tool: string, args: Record<string, unknown>, onInput?: InputHandler) {
  const statuses: TaskStatusWord[] = [];
  const result = await callTool(
    on,
    { name: tool, arguments: args },
    { pollIntervalMs: POLL_MS, onStatus: (task) => statuses.push(task.status), ...(onInput ? { onInput } : {}) },
  );
  return { result, statuses };
}

test('a handler that waits runs as a task: completed with its own result', async () => {
  const { result, statuses } = await call(client, 'build', { target: 'app' });
  expect(statuses).toEqual(['working', 'completed']);
  expect(result).toMatchObject({ content: [{ type: 'text', text: 'built app' }], structuredContent: { target: 'app' } });
  expect(calls).toEqual(['build app']);
});

test('a handler that settles at once answers in the request, no task', async () => {
  const { result, statuses } = await call(client, 'build', { target: 'now' });
  expect(statuses).toEqual([]);
  expect(result.content).toEqual([{ type: 'text', text: 'built at once' }]);
});

test('a protocol error thrown in a task is a failed task with the JSON-RPC error, and no result', async () => {
  const failed = (await call(client, 'build', { target: 'crash' }).catch((error: unknown) => error)) as TaskFailedError;
  expect(failed).toBeInstanceOf(TaskFailedError);
  expect(failed.error).toEqual({ code: -32603, message: 'the builder crashed' });
  const done = (await new RawTaskWire(serving.fetch).request('tasks/get', { taskId: failed.taskId })).result!;
  expect(done.status).toBe('failed');
  expect(done).not.toHaveProperty('result');
});

test('input_required inside a task parks it; the answer calls the handler again with it', async () => {
  const asked: string[] = [];
  const { result, statuses } = await call(client, 'approve', {}, (requests) => {
    asked.push(...Object.keys(requests));
    return { approver: { action: 'accept', content: { name: 'Ada' } } };
  });
  expect(asked).toEqual(['approver']);
  expect([statuses[0], statuses.at(-1)]).toEqual(['working', 'completed']);
  expect(statuses).toContain('input_required');
  expect(result.content).toEqual([{ type: 'text', text: 'approved by Ada' }]);
  expect(calls).toEqual(['approve ?', 'approve Ada']);
});

test('bad arguments are InvalidParams before any task', async () => {
  const refused = (await call(client, 'build', { target: 3 }).catch((error: unknown) => error)) as ClientProtocolError;
  expect(refused).toBeInstanceOf(ClientProtocolError);
  expect(refused.code).toBe(-32602);
  expect(refused.message).toContain('Tool build');
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
  const full = serveInProcess(() => new WorkflowServer({ name: 'full', version: '1.0.0' }, { tasks: store }).registerDefinitions(wait));
  try {
    const waiting = await full.connect();
    const stop = new AbortController();
    let created = false;
    const first = callTool(
      waiting,
      { name: 'wait_long', arguments: { id: 'first' } },
      { signal: stop.signal, pollIntervalMs: POLL_MS, onStatus: () => (created = true) },
    );
    await eventually(() => created);
    await expect(callTool(waiting, { name: 'wait_long', arguments: { id: 'second' } })).rejects.toThrow('maxTasks');
    await eventually(() => aborted.includes('second'));
    expect(aborted).toEqual(['second']);
    stop.abort(new Error('done'));
    await expect(first).rejects.toThrow('done');
  } finally {
    await full.close();
  }
});

test('a result bigger than maxTraceBytes is a failed task whose error names the option; the server keeps serving', async () => {
  const big = defineTool('big_report', { description: 'A big report', inputSchema: {}, task: 'optional' }, async () => {
    await sleep(5);
    return text('x'.repeat(20_000));
  });
  const served = serveInProcess(() =>
    new WorkflowServer({ name: 'big', version: '1.0.0' }, { maxTraceBytes: 10_000 }).registerDefinitions(big, build),
  );
  try {
    const bigClient = await served.connect();
    const failed = (await call(bigClient, 'big_report', {}).catch((error: unknown) => error)) as TaskFailedError;
    expect(failed).toBeInstanceOf(TaskFailedError);
    expect(failed.error?.message).toContain("over this server's maxTraceBytes (10000)");
    const next = await call(bigClient, 'build', { target: 'app' });
    expect(next.statuses).toEqual(['working', 'completed']);
  } finally {
    await served.close();
  }
});

test('a private step tool is no task for a client: with or without the extension, the answer of an unknown tool, and it never runs', async () => {
  const wire = new RawTaskWire(serving.fetch);
  const unknown = await wire.call('no_such_tool', { target: 'x' });
  for (const tasks of [true, false]) {
    const answer = await wire.call('hidden_build', { target: 'from-client' }, { tasks });
    expect(answer.result?.taskId).toBeUndefined();
    expect(answer.result).toBeUndefined();
    expect(JSON.stringify(answer.error).replaceAll('hidden_build', 'no_such_tool')).toBe(JSON.stringify(unknown.error));
  }
  expect(calls).toEqual([]);
});
