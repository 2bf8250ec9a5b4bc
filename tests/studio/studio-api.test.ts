import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { serverPids } from './server-pids';
import { openStudio, STUDIO_SERVER, type StudioUnderTest } from './studio-client';

/** The workflows studio-server.js serves, by name. */
const SERVED = ['book_table', 'broken_report', 'fan_out', 'partial', 'slow_export'];

/**
 * The studio's node side (issue 29, DESIGN §2.15) against a real server in a process of its own,
 * on both SDK lines: the API lists the workflows with their steps and graphs, runs them by prompt
 * and by tool, turns the server's questions into question events answered through the API, and
 * reports failures and handoffs. Needs `npm run build` (the server runs on the built packages).
 */

const page = mkdtempSync(path.join(tmpdir(), 'studio-page-'));
writeFileSync(
  path.join(page, 'index.html'),
  '<meta name="mcpflow-token" content="__MCPFLOW_TOKEN__"><script src="app.js?token=__MCPFLOW_TOKEN__"></script>',
);

describe.each([1, 2])('studio over stdio, server on SDK %i.x', (sdk) => {
  let under: StudioUnderTest;
  beforeAll(async () => {
    under = await openStudio({ command: `"${process.execPath}" ${STUDIO_SERVER} --sdk ${sdk}`, pageDir: page });
  });
  afterAll(() => under.studio.close());

  test('GET /api/server: connected, the server named, the protocol it speaks', async () => {
    const { json } = await under.api('/api/server');
    expect(json.connection).toMatchObject({ state: 'connected' });
    expect(json.server).toMatchObject({ name: 'studio-test', version: '1.0.0', protocolVersion: sdk === 2 ? '2026-07-28' : '2025-11-25' });
  });

  test('GET /api/workflows: each workflow with its faces, arguments, steps and graph', async () => {
    const { status, json } = await under.api('/api/workflows');
    expect(status).toBe(200);
    expect(json.problems).toEqual([]);
    expect(json.workflows.map((workflow: { name: string }) => workflow.name).sort()).toEqual(SERVED);
    const fanOut = json.workflows.find((workflow: { name: string }) => workflow.name === 'fan_out');
    expect(fanOut.steps).toEqual([
      { name: 'items', kind: 'tool' },
      { name: 'first', kind: 'tool', group: 'g1' },
      { name: 'second', kind: 'tool', group: 'g1' },
      { name: 'each', kind: 'tool', forEach: true },
    ]);
    expect(fanOut.mermaid).toMatch(/^flowchart TD\n {2}start\(\["fan_out"\]\)/);
    const book = json.workflows.find((workflow: { name: string }) => workflow.name === 'book_table');
    expect(book).toMatchObject({
      description: 'Book a table, asking how many guests',
      arguments: [{ name: 'name', required: true }],
      faces: { prompt: true, tool: true, task: false },
    });
    const slow = json.workflows.find((workflow: { name: string }) => workflow.name === 'slow_export');
    // A task where the server serves tasks (SDK 2.x); a plain tool on 1.x.
    expect(slow).toMatchObject({ arguments: [{ name: 'rows', required: true }], faces: { prompt: false, tool: true, task: sdk === 2 } });
  });

  test.each(['prompt', 'tool'])(
    'a run by %s: its question arrives as an event, a wrong type is a 400 naming the field, the answer completes it',
    async (face) => {
      const started = await under.api('/api/runs', { method: 'POST', body: { workflow: 'book_table', face, arguments: { name: 'Ada' } } });
      expect(started.status).toBe(200);
      const { runId } = started.json;
      const question = (await under.events(runId, (event) => event.type === 'question')).at(-1)!.data;
      expect(question.message).toContain('How many guests?');
      const wrong = await under.api(`/api/runs/${runId}/answers`, {
        method: 'POST',
        body: {
          questionId: question.questionId,
          action: 'accept',
          content: { [Object.keys(question.requestedSchema.properties)[0]]: 'four' },
        },
      });
      expect(wrong.status).toBe(400);
      expect(wrong.json.field).toBe(Object.keys(question.requestedSchema.properties)[0]);
      expect(wrong.json.error).toContain('must be a number');
      const field = Object.keys(question.requestedSchema.properties)[0];
      const right = await under.api(`/api/runs/${runId}/answers`, {
        method: 'POST',
        body: { questionId: question.questionId, action: 'accept', content: { [field]: 4 } },
      });
      expect(right).toEqual({ status: 200, json: { ok: true } });
      const run = await under.finished(runId);
      expect(run.status).toBe('completed');
      expect(JSON.stringify(run.messages)).toContain('Ada x4');
      expect(run.timeline).toEqual([expect.objectContaining({ step: 'booking', status: 'completed' })]);
    },
  );

  test('a declined question ends the run cancelled', async () => {
    const { runId } = (
      await under.api('/api/runs', { method: 'POST', body: { workflow: 'book_table', face: 'prompt', arguments: { name: 'Ada' } } })
    ).json;
    const question = (await under.events(runId, (event) => event.type === 'question')).at(-1)!.data;
    await under.api(`/api/runs/${runId}/answers`, { method: 'POST', body: { questionId: question.questionId, action: 'decline' } });
    const run = await under.finished(runId);
    expect(run.status).toBe('cancelled');
    expect(run.reason).toContain('declined by the user');
  });

  test('a failed run carries its reason; a handoff says so', async () => {
    const failed = (await under.api('/api/runs', { method: 'POST', body: { workflow: 'broken_report', face: 'prompt', arguments: {} } }))
      .json;
    const failure = await under.finished(failed.runId);
    expect(failure.status).toBe('failed');
    expect(failure.reason).toContain('the report service is down');
    expect(failure.timeline).toEqual([expect.objectContaining({ step: 'explode', status: 'failed' })]);
    const partial = (
      await under.api('/api/runs', { method: 'POST', body: { workflow: 'partial', face: 'prompt', arguments: { id: '7' } } })
    ).json;
    const handoff = await under.finished(partial.runId);
    expect(handoff.status).toBe('handoff');
    expect(handoff.timeline.map((row: { step: string }) => row.step)).toEqual(['record', 'enrich']);
  });

  test('the timeline: parallel steps share a group, forEach iterations are rows of their own', async () => {
    const { runId } = (await under.api('/api/runs', { method: 'POST', body: { workflow: 'fan_out', face: 'prompt', arguments: {} } })).json;
    const run = await under.finished(runId);
    expect(run.status).toBe('completed');
    // Every row has its duration — parallel steps and iterations too — from the server's own timing
    // (the studio asks for it with _meta["mcpflow/timing"]), on both lines and every protocol: compared apart.
    for (const row of run.timeline) expect(row.durationMs).toEqual(expect.any(Number));
    for (const row of run.timeline) expect(row.durationMs).toBeGreaterThanOrEqual(0);
    // Each row's start on the axis: after the steps before it, a group's steps together, items one after another.
    const [items, first, second, each, item0, item1, item2] = run.timeline as { startMs: number; durationMs: number }[];
    expect(items.startMs).toBe(0);
    expect(first.startMs).toBe(items.durationMs);
    expect(second.startMs).toBe(first.startMs);
    expect(each.startMs).toBe(first.startMs + Math.max(first.durationMs, second.durationMs));
    expect([item0.startMs, item1.startMs, item2.startMs]).toEqual([
      each.startMs,
      each.startMs + item0.durationMs,
      each.startMs + item0.durationMs + item1.durationMs,
    ]);
    // And each step's final status.
    expect(run.steps).toEqual(['items', 'first', 'second', 'each'].map((step) => ({ step, status: 'completed' })));
    expect(run.timeline.map((row: { durationMs?: number }) => ({ ...row, durationMs: undefined, startMs: undefined }))).toEqual([
      { step: 'items', status: 'completed' },
      { step: 'first', status: 'completed', group: 'g1' },
      { step: 'second', status: 'completed', group: 'g1' },
      { step: 'each', status: 'completed' },
      { step: 'each', status: 'completed', iteration: 0 },
      { step: 'each', status: 'completed', iteration: 1 },
      { step: 'each', status: 'completed', iteration: 2 },
    ]);
  });

  // Tasks are SDK 2.x's (the extension needs protocol 2026-07-28).
  if (sdk === 2)
    test('a run as a task: listed with its status, cancelled through the API, ends cancelled', async () => {
      const { runId } = (
        await under.api('/api/runs', { method: 'POST', body: { workflow: 'slow_export', face: 'task', arguments: { rows: '3' } } })
      ).json;
      const task = (await under.events(runId, (event) => event.type === 'task')).at(-1)!.data;
      expect(task).toEqual({ taskId: expect.any(String), status: 'working' });
      expect((await under.api('/api/tasks')).json.tasks).toContainEqual({
        taskId: task.taskId,
        runId,
        workflow: 'slow_export',
        status: 'working',
      });
      expect(await under.api(`/api/tasks/${task.taskId}/cancel`, { method: 'POST' })).toEqual({ status: 200, json: { ok: true } });
      const run = await under.finished(runId);
      expect(run.status).toBe('cancelled');
      expect((await under.api('/api/tasks')).json.tasks).toContainEqual(
        expect.objectContaining({ taskId: task.taskId, status: 'cancelled' }),
      );
      expect((await under.api('/api/tasks/nope/cancel', { method: 'POST' })).status).toBe(404);
    });

  test('bad requests: an unknown workflow, a face it does not have, a run that does not exist', async () => {
    const unknown = await under.api('/api/runs', { method: 'POST', body: { workflow: 'nope', face: 'prompt', arguments: {} } });
    expect(unknown).toEqual({ status: 404, json: { error: 'The server has no workflow nope.', field: 'workflow' } });
    const face = await under.api('/api/runs', { method: 'POST', body: { workflow: 'partial', face: 'tool', arguments: {} } });
    expect(face).toEqual({ status: 400, json: { error: 'Workflow partial is not served as a tool.', field: 'face' } });
    expect((await under.api('/api/runs/nope')).status).toBe(404);
  });

  test('the Inspector: bad calls are 400 naming the field; a plain text POST is refused like every POST', async () => {
    const noName = await under.api('/api/inspector/tools/call', { method: 'POST', body: { arguments: {} } });
    expect(noName).toEqual({ status: 400, json: { error: 'name must be the name of a tool (a non-empty string).', field: 'name' } });
    const list = await under.api('/api/inspector/tools/call', { method: 'POST', body: { name: 'x', arguments: [1] } });
    expect(list).toEqual({ status: 400, json: { error: "arguments must be an object of the tool's arguments.", field: 'arguments' } });
    const noUri = await under.api('/api/inspector/resources/read', { method: 'POST', body: { uri: 7 } });
    expect(noUri).toEqual({ status: 400, json: { error: 'uri must be the URI of a resource (a non-empty string).', field: 'uri' } });
    const base = `http://127.0.0.1:${under.studio.port}`;
    const plain = await fetch(`${base}/api/inspector/tools/call`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: base, 'x-mcpflow-token': under.studio.token },
      body: JSON.stringify({ name: 'x' }),
    });
    expect(plain.status).toBe(403);
  });
});

describe('studio security and the page', () => {
  let under: StudioUnderTest;
  beforeAll(async () => {
    under = await openStudio({ command: `"${process.execPath}" ${STUDIO_SERVER} --sdk 2`, pageDir: page });
  });
  afterAll(() => under.studio.close());

  test('403 without the token, with a wrong token, and with a non-loopback Host', async () => {
    const missing = await under.api('/api/workflows', { token: null });
    expect(missing.status).toBe(403);
    expect(missing.json.error).toContain('needs its token');
    expect((await under.api('/api/workflows', { token: 'x'.repeat(43) })).status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${under.studio.port}/`)).status).toBe(403);
    expect(await under.withHost('/api/server', 'evil.example')).toBe(403);
    expect(await under.withHost('/api/server', `evil.example:${under.studio.port}`)).toBe(403);
    expect(await under.withHost('/api/server', `localhost:${under.studio.port}`)).toBe(200);
    expect(await under.withHost('/api/server', `[::1]:${under.studio.port}`)).toBe(200);
  });

  test('the token: 32 random bytes in base64url, in the URL the studio prints', () => {
    expect(Buffer.from(under.studio.token, 'base64url')).toHaveLength(32);
    expect(under.studio.url).toBe(`http://127.0.0.1:${under.studio.port}/?token=${under.studio.token}`);
  });

  test('GET / serves the page with the token in place of its placeholder', async () => {
    const response = await fetch(under.studio.url);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`content="${under.studio.token}"`);
    expect(html).toContain(`app.js?token=${under.studio.token}`);
    expect(html).not.toContain('__MCPFLOW_TOKEN__');
  });
});

describe('studio: bad input', () => {
  test('a page that was not built is a 500 that says to build it', async () => {
    const under = await openStudio({ command: `"${process.execPath}" ${STUDIO_SERVER} --sdk 2`, pageDir: path.join(page, 'absent') });
    const response = await fetch(under.studio.url);
    expect(response.status).toBe(500);
    expect(((await response.json()) as { error: string }).error).toContain('run npm run build');
    await under.studio.close();
  });

  test('a command that exits at once: failed, with its stderr', async () => {
    const under = await openStudio({ command: `"${process.execPath}" -e "console.error('cannot open database.sqlite'); process.exit(3)"` });
    const { json } = await under.api('/api/server');
    expect(json.connection.state).toBe('failed');
    expect(json.connection.error).toContain('did not start an MCP server on stdio');
    expect(json.connection.stderr).toContain('cannot open database.sqlite');
    const workflows = await under.api('/api/workflows');
    expect(workflows.status).toBe(503);
    expect(workflows.json.error).toContain('not connected (failed');
    await under.studio.close();
  });

  test('a URL that answers no MCP: failed, saying so', async () => {
    const { createServer } = await import('node:http');
    const plain = createServer((_, response) => response.end('<html>not MCP</html>'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as { port: number }).port}/mcp`;
    const under = await openStudio({ url });
    const { json } = await under.api('/api/server');
    expect(json.connection.state).toBe('failed');
    expect(json.connection.error).toContain(`${url} did not answer as an MCP server over Streamable HTTP`);
    await under.studio.close();
    plain.close();
  });
});

/** The test server over HTTP on 127.0.0.1 (a free port): its MCP URL, and how to stop it. */
async function httpServer(sdk: number, port = 0): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [STUDIO_SERVER, '--sdk', String(sdk), '--http'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PORT: String(port) },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for await (const line of createInterface({ input: child.stderr! })) {
    const listening = /listening on (\S+)/.exec(line);
    if (listening)
      return {
        url: listening[1],
        stop: () => {
          child.kill();
          return exited;
        },
      };
  }
  throw new Error('the HTTP test server exited before it listened');
}

describe.each([1, 2])('studio over Streamable HTTP, server on SDK %i.x', (sdk) => {
  test('the workflows listed, a question answered through the API, the run completed', async () => {
    const server = await httpServer(sdk);
    const under = await openStudio({ url: server.url, pageDir: page });
    try {
      expect((await under.api('/api/server')).json.connection).toEqual({ state: 'connected', target: server.url });
      const { json } = await under.api('/api/workflows');
      expect(json.workflows.map((workflow: { name: string }) => workflow.name).sort()).toEqual(SERVED);
      const { runId } = (
        await under.api('/api/runs', { method: 'POST', body: { workflow: 'book_table', face: 'tool', arguments: { name: 'Bo' } } })
      ).json;
      const question = (await under.events(runId, (event) => event.type === 'question')).at(-1)!.data;
      const field = Object.keys(question.requestedSchema.properties)[0];
      await under.api(`/api/runs/${runId}/answers`, {
        method: 'POST',
        body: { questionId: question.questionId, action: 'accept', content: { [field]: 2 } },
      });
      const run = await under.finished(runId);
      expect(run.status).toBe('completed');
      expect(JSON.stringify(run.messages)).toContain('Bo x2');
    } finally {
      await under.studio.close();
      await server.stop();
    }
  });
});

describe('studio: an HTTP server restarting', () => {
  test('a request that finds it gone: reconnecting, then connected once it serves again on its URL', async () => {
    const first = await httpServer(2);
    const states: string[] = [];
    const under = await openStudio({ url: first.url, pageDir: page, onConnection: (connection) => states.push(connection.state) });
    try {
      await first.stop();
      const gone = await under.api('/api/workflows');
      expect(gone.status).toBe(503);
      expect(gone.json.error).toBe(`${first.url} stopped answering (fetch failed); the studio reconnects to it.`);
      expect(states).toEqual(['connected', 'reconnecting']);
      const again = await httpServer(2, Number(new URL(first.url).port));
      try {
        // Until the studio gives up or reconnects (it tries for some seconds): then it must have reconnected.
        while (states.at(-1) === 'reconnecting') await new Promise((resolve) => setImmediate(resolve));
        expect(states).toEqual(['connected', 'reconnecting', 'connected']);
        expect((await under.api('/api/workflows')).status).toBe(200);
      } finally {
        await again.stop();
      }
    } finally {
      await under.studio.close();
    }
  });
});

describe('studio: the server restarting', () => {
  test('a stdio server that exits is started again: reconnecting, then connected, and the API serves again', async () => {
    const pids = serverPids();
    process.env.MCPFLOW_STUDIO_TEST_PIDS = pids.file;
    const states: string[] = [];
    const under = await openStudio({
      command: `"${process.execPath}" ${STUDIO_SERVER} --sdk 2`,
      pageDir: page,
      onConnection: (connection) => states.push(connection.state),
    });
    try {
      // The server's process: the one alive (the 2.x client probes the protocol with a short-lived sibling first),
      // once it has answered a request (on 2026-07-28 connecting needs no answer of the session's process).
      expect((await under.api('/api/workflows')).status).toBe(200);
      const first = pids.alive();
      expect(first).toHaveLength(1);
      process.kill(first[0]);
      while (states.at(-1) !== 'failed' && (states.at(-1) !== 'connected' || !states.includes('reconnecting')))
        await new Promise((resolve) => setImmediate(resolve));
      expect(states).toEqual(['connected', 'reconnecting', 'connected']);
      expect((await under.api('/api/workflows')).status).toBe(200);
      expect(pids.alive()).not.toContain(first[0]);
      expect(pids.alive()).toHaveLength(1);
    } finally {
      delete process.env.MCPFLOW_STUDIO_TEST_PIDS;
      await under.studio.close();
    }
  });
});

describe('studio: a workflow it cannot read', () => {
  test('is a problem naming the entry and what is wrong; the others are listed; a plain prompt is not a workflow', async () => {
    const under = await openStudio({ command: `"${process.execPath}" ${path.join(__dirname, 'odd-server.js')}`, pageDir: page });
    try {
      const { status, json } = await under.api('/api/workflows');
      expect(status).toBe(200);
      expect(json.workflows.map((workflow: { name: string }) => workflow.name)).toEqual(['good']);
      expect(json.problems).toEqual([
        {
          name: 'stepless',
          error: 'The prompt stepless carries a _meta["mcpflow/workflow"] the studio cannot read: its steps are not an array.',
        },
      ]);
    } finally {
      await under.studio.close();
    }
  });
});
