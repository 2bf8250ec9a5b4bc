import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openStudio, STUDIO_SERVER, type StudioUnderTest } from './studio-client';

/**
 * A run's raw JSON-RPC messages (issue 40, DESIGN §2.15): `GET /api/runs/:runId/messages` shows
 * what the studio's client sent and received for that run — its `prompts/get`, the server's
 * response, its progress notifications, the question and the answer — and no other run's. Needs
 * `npm run build` (the server runs on the built packages).
 */

const page = mkdtempSync(path.join(tmpdir(), 'studio-page-'));
writeFileSync(path.join(page, 'index.html'), '<meta name="mcpflow-token" content="__MCPFLOW_TOKEN__">');

interface Wire {
  direction: 'sent' | 'received';
  text: string;
}

/** The messages as JSON, each with its direction. */
function parsed(messages: Wire[]): { direction: string; message: any }[] {
  return messages.map(({ direction, text }) => ({ direction, message: JSON.parse(text) }));
}

describe.each([1, 2])('a run’s raw messages, server on SDK %i.x', (sdk) => {
  let under: StudioUnderTest;
  beforeAll(async () => {
    under = await openStudio({ command: `"${process.execPath}" ${STUDIO_SERVER} --sdk ${sdk}`, pageDir: page });
  });
  afterAll(() => under.studio.close());

  async function answeredRun(face: 'prompt' | 'tool'): Promise<string> {
    const { runId } = (await under.api('/api/runs', { method: 'POST', body: { workflow: 'book_table', face, arguments: { name: 'Ada' } } }))
      .json;
    const question = (await under.events(runId, (event) => event.type === 'question')).at(-1)!.data;
    const field = Object.keys(question.requestedSchema.properties)[0];
    await under.api(`/api/runs/${runId}/answers`, {
      method: 'POST',
      body: { questionId: question.questionId, action: 'accept', content: { [field]: 4 } },
    });
    expect((await under.finished(runId)).status).toBe('completed');
    return runId;
  }

  test('its prompts/get request and response, its progress notifications, the question and the answer', async () => {
    const runId = await answeredRun('prompt');
    const other = await answeredRun('tool');
    const { status, json } = await under.api(`/api/runs/${runId}/messages`);
    expect(status).toBe(200);
    expect(json.dropped).toBe(0);
    const messages = parsed(json.messages);
    const gets = messages.filter(({ direction, message }) => direction === 'sent' && message.method === 'prompts/get');
    expect(gets.length).toBeGreaterThan(0);
    expect(gets[0].message.params).toMatchObject({ name: expect.any(String), arguments: { name: 'Ada' } });
    // The 2026-07-28 round: the call is retried with the answer, a new id and progress token.
    const tokens = gets.map((get) => get.message.params._meta.progressToken);
    const responses = messages.filter(
      ({ direction, message }) => direction === 'received' && gets.some((get) => get.message.id === message.id) && 'result' in message,
    );
    expect(JSON.stringify(responses.at(-1)!.message.result.messages)).toContain('Ada x4');
    const progress = messages.filter(({ direction, message }) => direction === 'received' && message.method === 'notifications/progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const { message } of progress) expect(tokens).toContain(message.params.progressToken);
    // The question and the answer: a server request answered (2025), or an input_required round (2026-07-28).
    const text = json.messages.map((each: Wire) => each.text).join('\n');
    expect(text).toContain('How many guests?');
    const sent = messages.filter(({ direction }) => direction === 'sent').map(({ message }) => JSON.stringify(message));
    expect(sent.some((message) => message.includes('"action":"accept","content":{"guests":4}'))).toBe(true);
    // Nothing of the other run (its tools/call), nothing of the studio's own listing.
    expect(messages.some(({ message }) => message.method === 'tools/call' || message.method === 'prompts/list')).toBe(false);
    const others = parsed((await under.api(`/api/runs/${other}/messages`)).json.messages);
    expect(others.some(({ message }) => message.method === 'tools/call')).toBe(true);
    expect(others.some(({ message }) => message.method === 'prompts/get')).toBe(false);
  });

  // Tasks are SDK 2.x's (the extension needs protocol 2026-07-28).
  if (sdk === 2)
    test('a task run: its tools/call, its tasks/get polls and its tasks/cancel, each naming its task', async () => {
      const { runId } = (
        await under.api('/api/runs', { method: 'POST', body: { workflow: 'slow_export', face: 'task', arguments: { rows: '3' } } })
      ).json;
      const { taskId } = (await under.events(runId, (event) => event.type === 'task')).at(-1)!.data;
      const sentOf = async (method: string) => {
        for (;;) {
          const messages = parsed((await under.api(`/api/runs/${runId}/messages`)).json.messages);
          const found = messages.filter(({ direction, message }) => direction === 'sent' && message.method === method);
          if (found.length > 0) return found.map(({ message }) => message);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      expect((await sentOf('tools/call'))[0].params).toMatchObject({ name: expect.any(String), arguments: { rows: '3' } });
      expect((await sentOf('tasks/get'))[0].params).toMatchObject({ taskId });
      await under.api(`/api/tasks/${taskId}/cancel`, { method: 'POST' });
      expect((await under.finished(runId)).status).toBe('cancelled');
      expect((await sentOf('tasks/cancel'))[0].params).toMatchObject({ taskId });
    });

  test('token-protected, and 404 for a run that does not exist', async () => {
    const runId = (await under.api('/api/runs')).json.runs[0]?.runId ?? 'none';
    expect((await under.api(`/api/runs/${runId}/messages`, { token: null })).status).toBe(403);
    expect((await under.api('/api/runs/no-such-run/messages')).status).toBe(404);
  });
});

describe('a hostile server’s raw messages (hostile-server.js)', () => {
  let under: StudioUnderTest;
  beforeAll(async () => {
    under = await openStudio({ command: `"${process.execPath}" ${path.join(__dirname, 'hostile-server.js')}`, pageDir: page });
  });
  afterAll(() => under.studio.close());

  test('a 1 MB result is kept as its first 16 KiB and a visible [truncated] mark', async () => {
    const { runId } = (await under.api('/api/runs', { method: 'POST', body: { workflow: 'flood', face: 'tool', arguments: {} } })).json;
    await under.finished(runId);
    const { json } = await under.api(`/api/runs/${runId}/messages`);
    // The tool's response (its result holds a 1 MB text, and a 1 MB step name in its _meta).
    const response = (json.messages as Wire[]).find((each) => each.direction === 'received' && each.text.includes('"result"'))!;
    expect(response.text.length).toBeLessThan(17 * 1024);
    expect(response.text).toMatch(/\n\.\.\. \[truncated: \d+ more characters\]$/);
    expect(response.text.startsWith('{\n  "jsonrpc": "2.0"')).toBe(true);
  });
});
