import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { callTool, type TaskStatus } from '@mcpflow/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createNightlyBuildServer } from '../../examples/nightly-build/server';
import { POLL_MS, serveInProcess } from '../helpers/task-serving';

/** docs/tasks.md "Calling a task tool": the agent's script, against the built example in its own process (stdio). */
test('an agent calls nightly_build with @mcpflow/client: the task works, asks the channel, and completes', async () => {
  const client = new Client({ name: 'agent', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(__dirname, '../../examples/dist/nightly-build/server.js')],
      stderr: 'ignore',
    }),
  );
  try {
    const heard: TaskStatus[] = [];
    const asked: string[] = [];
    const result = await callTool(
      client,
      { name: 'nightly_build', arguments: { branch: 'main' } },
      {
        onStatus: (task) => heard.push(task),
        onInput: async (requests) =>
          Object.fromEntries(
            Object.entries(requests).map(([key, request]) => {
              if (request.method === 'elicitation/create') asked.push(request.params.message);
              return [key, { action: 'accept', content: { channel: 'beta' } }];
            }),
          ),
      },
    );
    expect(asked).toEqual(['Publish main to which channel?']);
    expect(heard[0]).toMatchObject({ status: 'working', ttlMs: 600_000, pollIntervalMs: 500 });
    expect(result.structuredContent).toMatchObject({
      status: 'completed',
      outputs: { build: { artifact: 'main-nightly.tgz' }, tests: { passed: 412, failed: 0 } },
    });
    expect(JSON.stringify(result.content)).toContain('published main-nightly.tgz to beta');
  } finally {
    await client.close();
  }
}, 60_000);

/** The runnable tasks example (examples/nightly-build): a task that works, asks, and completes with the tool's result. */
test('nightly_build runs as a task: working, the channel question, then completed with every step', async () => {
  const served = serveInProcess(createNightlyBuildServer);
  try {
    const heard: TaskStatus[] = [];
    const asked: string[] = [];
    const result = await callTool(
      await served.connect(),
      { name: 'nightly_build', arguments: { branch: 'main' } },
      {
        pollIntervalMs: POLL_MS,
        onStatus: (task) => heard.push(task),
        onInput: (requests) => {
          const question = requests['published/channel'];
          if (question?.method === 'elicitation/create') asked.push(question.params.message);
          return { 'published/channel': { action: 'accept', content: { channel: 'beta' } } };
        },
      },
    );
    expect(heard[0]).toMatchObject({ status: 'working', ttlMs: 600_000, pollIntervalMs: 500 });
    expect(heard.map((task) => task.status)).toContain('input_required');
    expect(asked).toEqual(['Publish main to which channel?']);
    expect(result.structuredContent).toMatchObject({
      status: 'completed',
      outputs: { build: { artifact: 'main-nightly.tgz' }, tests: { passed: 412, failed: 0 } },
    });
    expect(JSON.stringify(result.content)).toContain('published main-nightly.tgz to beta');
  } finally {
    await served.close();
  }
});

test('served over HTTP, SIGTERM closes it (the rounds in flight handed over) and it exits 0', async () => {
  const child = spawn(process.execPath, [path.join(__dirname, '../../examples/dist/nightly-build/server.js')], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the example exited with ${code}: ${stderr}`)));
  });
  const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
  child.kill('SIGTERM');
  expect(await exited).toEqual([0, null]);
}, 60_000);
