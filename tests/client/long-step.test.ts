import { callTool } from '@mcpflow/client';
import { serveTaskServer } from './served-task-server';

/**
 * DESIGN §2.13 "Long steps": inside a task a step without `timeoutMs` may run as long as the task
 * lives (`ttlMs`), not the 30 s meant for a request. Slow by nature: its step takes 35 s.
 */
test('a 35 s step without timeoutMs completes inside a task', async () => {
  const served = await serveTaskServer('http', { MCPFLOW_TEST_BUILD_MS: '35000' });
  try {
    const client = await served.connect();
    const result = await callTool(
      client,
      { name: 'deploy', arguments: { target: 'web' } },
      { onInput: async (requests) => ({ [Object.keys(requests)[0]]: { action: 'accept', content: { channel: 'beta' } } }) },
    );
    expect(result.structuredContent).toMatchObject({ status: 'completed', outputs: { built: { artifact: 'web.tgz' } } });
    expect(served.events()).toEqual(['build:start', 'ship:start']);
  } finally {
    await served.close();
  }
}, 90_000);
