import { RunWorkflowOptionError, runWorkflow } from '@mcpflow/testing';
import { GuardedDeploy, Report } from './task-workflows';

/** `runWorkflow(Class, { task: true })` drives a run through MCP tasks: create, poll, answer by tasks/update. */

test('a workflow run as a task: its questions answered from answers through tasks/update, its result as the tool face gives it', async () => {
  const run = await runWorkflow(GuardedDeploy, {
    arguments: { project: 'atlas' },
    answers: { 'deployed/replicas': 3, 'deployed/confirm': true },
    task: true,
  });
  expect(run.status).toBe('completed');
  expect(run.meta.questions).toEqual([
    expect.objectContaining({ key: 'deployed/replicas', status: 'answered' }),
    expect.objectContaining({ key: 'deployed/confirm', status: 'answered' }),
  ]);
  expect(run.outputs).toMatchObject({ deployed: { deployed: true } });
  expect(run.calls.map((call) => call.tool)).toEqual(['fetch_figures', 'deploy']);
  expect(JSON.stringify(run.messages)).toContain('deployed atlas x3');
});

test('task: true needs SDK 2.x on 2026-07-28, and a class served as a task tool', async () => {
  await expect(runWorkflow(Report, { arguments: { project: 'a' }, task: true, sdk: 1 })).rejects.toThrow(RunWorkflowOptionError);
  await expect(runWorkflow(Report, { arguments: { project: 'a' }, task: true, protocol: '2025-11-25' })).rejects.toThrow(
    'protocol 2026-07-28',
  );
  const { Tour } = await import('./plain-workflow');
  await expect(runWorkflow(Tour, { arguments: {}, tools: { look: () => 'ok' }, task: true })).rejects.toThrow(
    "expose: { tool: { task: 'optional' } }",
  );
});
