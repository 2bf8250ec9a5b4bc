import { callTool, resumeTask, TaskInputError, TaskSupportError, type InputRequests, type TaskStatus } from '@mcpflow/client';
import { eventually, serveTaskServer, type ServedTaskServer, type TransportKind } from './served-task-server';

/** What an agent with a user to ask declares: without it a question is not asked, the run hands off. */
const ELICITATION = { elicitation: { form: {} } };

/** Answers the channel question of `deploy` with `channel`, checking it is the form the server asked. */
function pick(channel: string) {
  return async (requests: InputRequests) => {
    const [[key, request]] = Object.entries(requests);
    expect(key).toBe('shipped/channel');
    expect(request.method).toBe('elicitation/create');
    expect(request.params).toMatchObject({ message: 'Ship web to which channel?', requestedSchema: { type: 'object' } });
    return { [key]: { action: 'accept', content: { channel } } };
  };
}

describe.each<TransportKind>(['stdio', 'http'])('callTool over %s, through the SDK 2.x Client', (kind) => {
  let served: ServedTaskServer;
  afterEach(() => served.close());

  test('a task with a question: onInput answers it, onStatus hears the task, the tool result comes back', async () => {
    served = await serveTaskServer(kind);
    const client = await served.connect();
    const heard: TaskStatus[] = [];
    const result = await callTool(
      client,
      { name: 'deploy', arguments: { target: 'web' } },
      { onInput: pick('beta'), onStatus: (task) => heard.push(task) },
    );
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'completed', outputs: { built: { artifact: 'web.tgz' } } });
    expect(JSON.stringify(result.content)).toContain('shipped web.tgz to beta');
    expect(heard[0]).toMatchObject({ status: 'working', taskId: expect.any(String), pollIntervalMs: 20 });
    expect(heard.map((task) => task.status)).toEqual(expect.arrayContaining(['input_required', 'completed']));
    expect(new Set(heard.map((task) => task.taskId)).size).toBe(1);
  });

  test('a plain tool passes through unchanged, as the SDK Client returns it', async () => {
    served = await serveTaskServer(kind);
    const client = await served.connect();
    const result = await callTool(client, { name: 'echo', arguments: { text: 'hi' } });
    expect(result).toEqual(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }));
    expect(result.structuredContent).toEqual({ echoed: 'hi' });
  });

  test("task: 'never' runs the task tool inside the request: its question is an input_required round, answered by onInput", async () => {
    served = await serveTaskServer(kind);
    const client = await served.connect();
    const heard: TaskStatus[] = [];
    const result = await callTool(
      client,
      { name: 'deploy', arguments: { target: 'web' } },
      { task: 'never', onInput: pick('stable'), onStatus: (task) => heard.push(task) },
    );
    expect(JSON.stringify(result.content)).toContain('shipped web.tgz to stable');
    expect(heard).toEqual([]);
  });

  test('without onInput a question rejects naming its key and the task; resumeTask answers it later', async () => {
    served = await serveTaskServer(kind);
    const client = await served.connect(ELICITATION);
    const error = (await callTool(client, { name: 'deploy', arguments: { target: 'web' } }).catch(
      (caught: unknown) => caught,
    )) as TaskInputError;
    expect(error).toBeInstanceOf(TaskInputError);
    expect(error.keys).toEqual(['shipped/channel']);
    expect(error.message).toContain(`Task ${error.taskId} of tool deploy asks for input ('shipped/channel')`);
    expect(error.message).toContain(`resumeTask(client, '${error.taskId}', { onInput })`);
    const result = await resumeTask(client, error.taskId, { onInput: pick('beta') });
    expect(JSON.stringify(result.content)).toContain('shipped web.tgz to beta');
  });

  test('while a step runs, the task says which (statusMessage and _meta["mcpflow/task"], value-free); once it asks, it names the step that waits', async () => {
    served = await serveTaskServer(kind, { MCPFLOW_TEST_BUILD_MS: '600000' });
    const client = await served.connect(ELICITATION);
    const stop = new AbortController();
    const heard: TaskStatus[] = [];
    const call = callTool(
      client,
      { name: 'deploy', arguments: { target: 'web' } },
      { signal: stop.signal, onStatus: (task) => heard.push(task) },
    );
    await eventually(() => heard.some((task) => task.statusMessage !== undefined));
    stop.abort(new Error('seen enough'));
    await expect(call).rejects.toThrow('seen enough');
    expect(heard.find((task) => task.statusMessage !== undefined)).toMatchObject({
      status: 'working',
      statusMessage: 'step 1 of 2: built',
      _meta: expect.objectContaining({ 'mcpflow/task': { workflow: 'deploy', step: 'built', stepIndex: 0, steps: 2, version: '2026.11' } }),
    });
    expect(JSON.stringify(heard)).not.toContain('web');

    const asking = await serveTaskServer(kind);
    try {
      const asked = await asking.connect(ELICITATION);
      const error = (await callTool(asked, { name: 'deploy', arguments: { target: 'web' } }).catch(
        (caught: unknown) => caught,
      )) as TaskInputError;
      const waiting: TaskStatus[] = [];
      await expect(resumeTask(asked, error.taskId, { onStatus: (task) => waiting.push(task) })).rejects.toBeInstanceOf(TaskInputError);
      expect(waiting).toEqual([
        expect.objectContaining({
          status: 'input_required',
          statusMessage: 'step 2 of 2: shipped',
          _meta: expect.objectContaining({
            'mcpflow/task': { workflow: 'deploy', step: 'shipped', stepIndex: 1, steps: 2, version: '2026.11' },
          }),
        }),
      ]);
    } finally {
      await asking.close();
    }
  });

  test('aborting while a step runs cancels the task: the step sees its signal fire, the later step never starts', async () => {
    served = await serveTaskServer(kind, { MCPFLOW_TEST_BUILD_MS: '600000' });
    const client = await served.connect();
    const stop = new AbortController();
    const call = callTool(client, { name: 'deploy', arguments: { target: 'web' } }, { signal: stop.signal, onInput: pick('beta') });
    await eventually(() => served.events().includes('build:start'));
    stop.abort(new Error('the user gave up'));
    await expect(call).rejects.toThrow('the user gave up');
    await eventually(() => served.events().includes('build:aborted'));
    expect(served.events()).toEqual(['build:start', 'build:aborted']);
  });
});

test('resumeTask from a second client, after the first disconnected (HTTP: the task outlives its client)', async () => {
  const served = await serveTaskServer('http');
  try {
    const first = await served.connect(ELICITATION);
    let taskId = '';
    await expect(
      callTool(first, { name: 'deploy', arguments: { target: 'web' } }, { onStatus: (task) => (taskId = task.taskId) }),
    ).rejects.toBeInstanceOf(TaskInputError);
    await first.close();
    const second = await served.connect();
    const result = await resumeTask(second, taskId, { onInput: pick('stable') });
    expect(JSON.stringify(result.content)).toContain('shipped web.tgz to stable');
    expect(served.events()).toEqual(['build:start', 'ship:start']);
  } finally {
    await served.close();
  }
});

test("task: 'always' on a server without the tasks extension rejects before calling, naming the fix", async () => {
  const served = await serveTaskServer('stdio', { MCPFLOW_TEST_NO_TASKS: '1' });
  try {
    const client = await served.connect();
    await expect(callTool(client, { name: 'echo', arguments: { text: 'hi' } }, { task: 'always' })).rejects.toThrow(TaskSupportError);
    await expect(callTool(client, { name: 'echo', arguments: { text: 'hi' } }, { task: 'always' })).rejects.toThrow(
      "the server does not advertise the io.modelcontextprotocol/tasks extension (capabilities.extensions), so it runs no task. Use task: 'auto'",
    );
  } finally {
    await served.close();
  }
});
