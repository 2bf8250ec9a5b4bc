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
