import path from 'node:path';
import { openStudio, type StudioUnderTest } from './studio-client';

/**
 * Which step a question belongs to, on the graph (DESIGN §2.15): the step that asks is `waiting`
 * and every step before it has ended, even when the client never saw the round's progress. Here a
 * pipe hands the server's output on in batches, so a round's progress notifications arrive in the
 * same chunk as its result (or its question), and the SDK's `Client` drops them (it hands a
 * notification on a microtask late, after the result removed its progress handler). The question's
 * key (`<step>/<argument>`) still names its step: in `_meta["mcpflow/question"]` asked in place on
 * a 2025 session (SDK 1.x), as the `inputRequests` key of an `input_required` round on 2026-07-28
 * (SDK 2.x).
 */
const FIXTURE = path.join(__dirname, 'browser', 'studio-fixture-server.js');
const PIPE = path.join(__dirname, 'coalescing-pipe.js');
const page = path.join(__dirname, 'no-page');

describe.each([1, 2])('a question on the graph, server on SDK %i.x behind a batching pipe', (sdk) => {
  let under: StudioUnderTest;
  beforeAll(async () => {
    under = await openStudio({ command: `"${process.execPath}" ${PIPE} "${process.execPath}" ${FIXTURE} --sdk ${sdk}`, pageDir: page });
  });
  afterAll(() => under.studio.close());

  test('the step asking is waiting, every earlier step completed; then all completed', async () => {
    const started = await under.api('/api/runs', {
      method: 'POST',
      body: { workflow: 'deploy_service', face: 'prompt', arguments: { service: 'api' } },
    });
    expect(started.status).toBe(200);
    const { runId } = started.json;
    const events = await under.events(runId, (event) => event.type === 'question');
    // What the graph shows once the question is on the page: the steps' last states, in order.
    const shown = new Map<string, string>(['build', 'unit_tests', 'lint', 'ship', 'scale'].map((step) => [step, 'pending']));
    for (const event of events) if (event.type === 'step') shown.set(event.data.step, event.data.status);
    expect(Object.fromEntries(shown)).toEqual({
      build: 'completed',
      unit_tests: 'completed',
      lint: 'completed',
      ship: 'completed',
      scale: 'waiting',
    });
    const question = events.at(-1)!.data;
    await under.api(`/api/runs/${runId}/answers`, {
      method: 'POST',
      body: { questionId: question.questionId, action: 'accept', content: { replicas: 3 } },
    });
    const run = await under.finished(runId);
    expect(run.status).toBe('completed');
    expect(run.steps).toEqual(['build', 'unit_tests', 'lint', 'ship', 'scale'].map((step) => ({ step, status: 'completed' })));
  });

  test("every progress notification the server sent is in the run's progress, those batched with their result too", async () => {
    const started = await under.api('/api/runs', {
      method: 'POST',
      body: { workflow: 'deploy_service', face: 'prompt', arguments: { service: 'web' } },
    });
    const { runId } = started.json;
    const question = (await under.events(runId, (event) => event.type === 'question')).at(-1)!.data;
    await under.api(`/api/runs/${runId}/answers`, {
      method: 'POST',
      body: { questionId: question.questionId, action: 'accept', content: { replicas: 2 } },
    });
    const events = await under.events(runId, (event) => event.type === 'result');
    const progress = events.filter((event) => event.type === 'progress').map((event) => event.data.message);
    // What the server sent, as the run's raw messages show it.
    const raw = (await under.api(`/api/runs/${runId}/messages`)).json.messages as { direction: string; text: string }[];
    const sent = raw
      .filter((message) => message.direction === 'received')
      .map((message) => JSON.parse(message.text))
      .filter((message) => message.method === 'notifications/progress')
      .map((message) => message.params.message);
    expect(sent).toContain('Started step 1 of 5: build');
    expect(progress).toEqual(sent);
  });
});
