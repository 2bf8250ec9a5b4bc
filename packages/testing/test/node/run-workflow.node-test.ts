/**
 * runWorkflow under node's own test runner (`node --test`), with none of jest's globals: the
 * jest test `node-test-runner.test.ts` compiles this file and runs it, against the built package.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runWorkflow, type RunWorkflowOptions } from '@mcpflow/testing';
import { AddProjectTask, GetHint, brokenWorkflow } from '../workflows';

const LINES = [
  { sdk: 1, protocol: '2025-11-25' },
  { sdk: 2, protocol: '2025-11-25' },
  { sdk: 2, protocol: '2026-07-28' },
] as const;

const projectTools = {
  list_pages: () => ({ names: ['MCP Tester', 'MCP Tester (archive)'] }),
  add_task: ({ project }: { project: string }) => ({ ok: true, page: project }),
};
const project = { arguments: { project: 'mcp tester', task: 'Fix the login bug' }, tools: projectTools } satisfies RunWorkflowOptions;

for (const { sdk, protocol } of LINES) {
  describe(`SDK ${sdk}.x, ${protocol}`, () => {
    test('stubs stand in for tools and resources; the run completes with its outputs and calls', async () => {
      const run = await runWorkflow(GetHint, {
        sdk,
        protocol,
        arguments: { player: 'ada' },
        tools: { get_my_progress: () => ({ game_id: 'zork2', room: 'Attic' }), write_hint: ({ room }) => `Look in the ${room}.` },
        resources: { 'if://walkthrough/{game_id}': ({ game_id }) => `Walkthrough of ${game_id}` },
      });
      assert.equal(run.status, 'completed');
      assert.deepEqual(run.outputs, {
        progress: { game_id: 'zork2', room: 'Attic' },
        walkthrough: 'Walkthrough of zork2',
        hint: 'Look in the Attic.',
      });
      assert.deepEqual(
        run.calls.map((call) => call.tool),
        ['get_my_progress', 'write_hint'],
      );
    });

    test('an ask answered by key', async () => {
      const run = await runWorkflow(AddProjectTask, { sdk, protocol, ...project, answers: { 'added/project': 'MCP Tester (archive)' } });
      assert.equal(run.status, 'completed');
      assert.deepEqual(run.outputs.added, { ok: true, page: 'MCP Tester (archive)' });
    });

    test('an ask left unanswered is declined: the run ends cancelled', async () => {
      const run = await runWorkflow(AddProjectTask, { sdk, protocol, ...project });
      assert.equal(run.status, 'cancelled');
      assert.equal(run.meta.stoppedAt, 'added');
    });

    test('a failing stub fails its step', async () => {
      const run = await runWorkflow(GetHint, {
        sdk,
        protocol,
        arguments: { player: 'ada' },
        tools: {
          write_hint: () => {
            throw new Error('no hints left');
          },
        },
      });
      assert.equal(run.status, 'failed');
      assert.equal(run.meta.reason, 'tool write_hint threw: no hints left');
    });

    test('a broken class: its definition error, with its code', async () => {
      await assert.rejects(runWorkflow(brokenWorkflow(), { sdk, protocol, arguments: {} }), { name: 'UnknownBindingError', code: 91001 });
    });
  });
}
