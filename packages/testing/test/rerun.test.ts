import { RunWorkflowOptionError, rerun, runWorkflow, type RunWorkflowOptions } from '@mcpflow/testing';
import type { WorkflowClass } from '@mcpflow/core';
import { LINES } from './lines';
import { AddProjectTask, GetHint } from './workflows';

/**
 * `rerun()` (DESIGN §2.15 "History and rerun"): a run `runWorkflow` returned runs again through the
 * server's `mcpflow/rerun` — every step, or from a step with the earlier steps' outputs as the
 * server recorded them (their stubs are not called) — on each SDK line and protocol.
 */
let progressCalls = 0;
const hintOptions = (): RunWorkflowOptions => ({
  arguments: { player: 'ada' },
  tools: {
    get_my_progress: ({ player }) => ({ game_id: 'zork2', room: `Attic ${(progressCalls += 1)} of ${player}` }),
    write_hint: () => {
      throw new Error('the hint model is down');
    },
  },
  resources: { 'if://walkthrough/{game_id}': ({ game_id }) => `# Walkthrough of ${game_id}` },
});

describe.each(LINES)('$label', ({ sdk, protocol }) => {
  const run = (target: WorkflowClass, options: RunWorkflowOptions) => runWorkflow(target, { sdk, protocol, ...options });
  beforeEach(() => (progressCalls = 0));

  test('rerun from the step that failed, its tool fixed: the earlier steps are not run again, their recorded outputs are used', async () => {
    const failed = await run(GetHint, hintOptions());
    expect(failed.status).toBe('failed');
    expect(failed.meta.stoppedAt).toBe('hint');

    const fixed = await rerun(failed, { from: 'hint', tools: { write_hint: ({ room }) => `Look in the ${room}.` } });
    expect(fixed.status).toBe('completed');
    // Only the step rerun called a tool; progress kept its recorded output (Attic 1, not a new call's Attic 2).
    expect(fixed.calls).toEqual([{ tool: 'write_hint', arguments: { room: 'Attic 1 of ada', walkthrough: '# Walkthrough of zork2' } }]);
    expect(progressCalls).toBe(1);
    expect(fixed.outputs).toMatchObject({ progress: { room: 'Attic 1 of ada' }, hint: 'Look in the Attic 1 of ada.' });

    // A rerun can be rerun in turn: now from the start, with other arguments.
    const again = await rerun(fixed, { arguments: { player: 'bob' } });
    expect(again.status).toBe('completed');
    expect(again.calls.map((call) => call.tool)).toEqual(['get_my_progress', 'write_hint']);
    expect(again.outputs).toMatchObject({ hint: 'Look in the Attic 2 of bob.' });
  });

  test('a step the workflow does not have, or one the run never reached, is refused by the server naming it', async () => {
    const failed = await run(GetHint, hintOptions());
    await expect(rerun(failed, { from: 'hnit' })).rejects.toThrow(/workflow 'get_hint' has no step 'hnit'. Did you mean 'hint'\?/);
    const stopped = await run(GetHint, {
      ...hintOptions(),
      resources: {
        'if://walkthrough/{game_id}': () => {
          throw new Error('no walkthrough');
        },
      },
    });
    expect(stopped.meta.stoppedAt).toBe('walkthrough');
    await expect(rerun(stopped, { from: 'hint' })).rejects.toThrow(/never completed the steps before 'hint'/);
    await expect(rerun(failed, { from: 'hint', arguments: { player: 'x' } })).rejects.toThrow(RunWorkflowOptionError);
  });

  test('a step that asks asks again when rerun from it (in place), and hands off on 2026-07-28 where a rerun cannot pause', async () => {
    const tools = {
      list_pages: () => ({ names: ['MCP Tester', 'Archive'] }),
      add_task: ({ project, task }: { project: string; task: string }) => ({ ok: true, page: project, task }),
    };
    const first = await run(AddProjectTask, {
      arguments: { project: 'mcp', task: 'Fix login' },
      tools,
      answers: { 'added/project': 'MCP Tester' },
    });
    expect(first.status).toBe('completed');
    const again = await rerun(first, { from: 'added', answers: { 'added/project': 'Archive' } });
    if (protocol === '2026-07-28') {
      expect(again.status).toBe('handoff');
      expect(again.calls).toEqual([]);
    } else {
      expect(again.status).toBe('completed');
      expect(again.calls).toEqual([{ tool: 'add_task', arguments: { project: 'Archive', task: 'Fix login' } }]);
    }
  });

  test('a run its server did not record cannot be rerun: the error says why', async () => {
    const unrecorded = await run(GetHint, { ...hintOptions(), serverOptions: { dev: false } });
    await expect(rerun(unrecorded)).rejects.toThrow(
      'runWorkflow: run was not recorded by its server, so it cannot be rerun: it ran with serverOptions.dev: false.',
    );
    await expect(rerun({ ...unrecorded })).rejects.toThrow('is not a run that runWorkflow (or rerun) returned');
  });
});
