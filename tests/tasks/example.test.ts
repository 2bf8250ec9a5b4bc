import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { createNightlyBuildServer } from '../../examples/nightly-build/server';
import { TaskClient } from './task-client';

/** The runnable tasks example (examples/nightly-build): a task that works, asks, and completes with the tool's result. */
test('nightly_build runs as a task: working, the channel question, then completed with every step', async () => {
  const { client, close } = TaskClient.inProcess(createNightlyBuildServer);
  try {
    const created = (await client.call('nightly_build', { branch: 'main' })).result!;
    expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 600_000, pollIntervalMs: 500 });
    const parked = await client.until(created.taskId, (task) => task.status !== 'working');
    expect(parked.inputRequests['published/channel'].params.message).toBe('Publish main to which channel?');
    await client.request('tasks/update', {
      taskId: created.taskId,
      inputResponses: { 'published/channel': { action: 'accept', content: { channel: 'beta' } } },
    });
    const done = await client.until(created.taskId);
    expect(done.result.structuredContent).toMatchObject({
      status: 'completed',
      outputs: { build: { artifact: 'main-nightly.tgz' }, tests: { passed: 412, failed: 0 } },
    });
    expect(JSON.stringify(done.result.content)).toContain('published main-nightly.tgz to beta');
  } finally {
    await close();
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
