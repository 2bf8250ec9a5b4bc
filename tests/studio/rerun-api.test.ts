import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openStudio, type StudioUnderTest } from './studio-client';

/**
 * Rerun through the studio's API (DESIGN §2.15, issue 40.4): the studio starts its `--command`
 * server with MCPFLOW_DEV=1, so the server records its runs and answers `mcpflow/rerun`; `POST
 * /api/runs/:runId/rerun` reruns a finished run from the start (same or edited arguments) or from a
 * step. The server is a real process on each SDK line; the tools' calls, counted in a file, prove
 * which steps ran. Needs `npm run build` (the server runs on the built packages).
 */
const RERUN_SERVER = path.join(__dirname, 'rerun-server.js');
const dir = mkdtempSync(path.join(tmpdir(), 'studio-rerun-'));
const page = path.join(dir, 'page');
require('node:fs').mkdirSync(page);
writeFileSync(path.join(page, 'index.html'), '<meta name="mcpflow-token" content="__MCPFLOW_TOKEN__">');

describe.each([1, 2])('studio rerun, server on SDK %i.x over stdio', (sdk) => {
  const calls = path.join(dir, `calls-${sdk}.txt`);
  const counted = () => {
    const lines = readFileSync(calls, 'utf8').split('\n').filter(Boolean);
    return {
      fetch: lines.filter((line) => line === 'fetch').length,
      build: lines.filter((line) => line === 'build').length,
      publish: lines.filter((line) => line === 'publish').length,
    };
  };
  let under: StudioUnderTest;
  const saved = process.env.MCPFLOW_RERUN_CALLS;
  beforeAll(async () => {
    writeFileSync(calls, '');
    // The studio passes its environment on to its --command server (and adds MCPFLOW_DEV=1).
    process.env.MCPFLOW_RERUN_CALLS = calls;
    under = await openStudio({ command: `"${process.execPath}" ${RERUN_SERVER} --sdk ${sdk}`, pageDir: page });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.MCPFLOW_RERUN_CALLS;
    else process.env.MCPFLOW_RERUN_CALLS = saved;
    await under.studio.close();
  });

  async function run(face: 'prompt' | 'tool', args: Record<string, string>) {
    const { status, json } = await under.api('/api/runs', { method: 'POST', body: { workflow: 'release', face, arguments: args } });
    expect(status).toBe(200);
    return under.finished(json.runId);
  }

  async function rerun(runId: string, body: Record<string, unknown>) {
    const { status, json } = await under.api(`/api/runs/${runId}/rerun`, { method: 'POST', body });
    expect({ status, json }).toMatchObject({ status: 200 });
    return under.finished(json.runId);
  }

  test('a run of the dev server is recorded: Rerun runs every step again with the same arguments, linked to its origin', async () => {
    writeFileSync(calls, '');
    const first = await run('prompt', { repo: 'app' });
    expect(first).toMatchObject({ status: 'completed', arguments: { repo: 'app' }, serverRun: { id: expect.any(String) } });
    expect(first.serverRun.from).toBeUndefined();
    const again = await rerun(first.runId, {});
    expect(again).toMatchObject({
      status: 'completed',
      rerunOf: first.runId,
      arguments: { repo: 'app' },
      serverRun: { from: first.serverRun.id },
    });
    expect(counted()).toEqual({ fetch: 2, build: 2, publish: 2 });
  });

  test('Rerun with edited arguments; Rerun from here reuses the recorded outputs of the earlier steps', async () => {
    writeFileSync(calls, '');
    const first = await run('tool', { repo: 'app' });
    expect(first.status).toBe('completed');
    const edited = await rerun(first.runId, { arguments: { repo: 'lib' } });
    expect(edited).toMatchObject({ status: 'completed', arguments: { repo: 'lib' } });
    expect(JSON.stringify(edited.messages)).toContain('lib@');
    expect(counted()).toEqual({ fetch: 2, build: 2, publish: 2 });

    const fromPublish = await rerun(first.runId, { fromStep: 'publish' });
    expect(fromPublish).toMatchObject({
      status: 'completed',
      rerunOf: first.runId,
      rerunFrom: 'publish',
      serverRun: { from: first.serverRun.id },
    });
    // Only publish ran again, on the artifact the first run built.
    expect(counted()).toEqual({ fetch: 2, build: 2, publish: 3 });
    expect(JSON.stringify(fromPublish.messages)).toContain(`${JSON.stringify(first.messages).match(/app@\d+\.tgz/)![0]}`);
  });

  test('a step the workflow does not have, and a run that is not the studio’s, are refused with what to do', async () => {
    const first = await run('prompt', { repo: 'app' });
    const unknownStep = await rerun(first.runId, { fromStep: 'deploy' });
    expect(unknownStep.status).toBe('failed');
    expect(unknownStep.reason).toContain("workflow 'release' has no step 'deploy'");
    const missing = await under.api('/api/runs/nope/rerun', { method: 'POST', body: {} });
    expect(missing.status).toBe(404);
    const bad = await under.api(`/api/runs/${first.runId}/rerun`, { method: 'POST', body: { fromStep: 3 } });
    expect(bad).toMatchObject({ status: 400, json: { field: 'fromStep' } });
  });
});

test('a server that is not in dev mode records nothing: its runs cannot be rerun (409, saying how to turn dev mode on)', async () => {
  const under = await openStudio({ command: `"${process.execPath}" ${RERUN_SERVER} --sdk 2 --no-dev`, pageDir: page });
  try {
    const { json } = await under.api('/api/runs', {
      method: 'POST',
      body: { workflow: 'release', face: 'prompt', arguments: { repo: 'app' } },
    });
    const first = await under.finished(json.runId);
    expect(first.status).toBe('completed');
    expect(first.serverRun).toBeUndefined();
    const refused = await under.api(`/api/runs/${first.runId}/rerun`, { method: 'POST', body: {} });
    expect(refused.status).toBe(409);
    expect(refused.json.error).toContain('dev mode only');
  } finally {
    await under.studio.close();
  }
});
