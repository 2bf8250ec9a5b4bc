import { RunWorkflowOptionError, runWorkflow } from '@mcpflow/testing';
import { AskFirst, GuardedDeploy, LabelledReport, Report } from './task-workflows';

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

test('a workflow whose first step asks: the MRTR round before the task is answered from answers, then the task runs', async () => {
  const run = await runWorkflow(AskFirst, {
    arguments: { project: 'atlas' },
    answers: { 'deployed/replicas': 2, 'deployed/confirm': true },
    task: true,
  });
  expect(run.status).toBe('completed');
  expect(run.outputs).toMatchObject({ deployed: { deployed: true } });
  expect(run.calls).toEqual([{ tool: 'deploy', arguments: { project: 'atlas', replicas: 2, confirm: true } }]);
});

test("a question to the model without an answer: the task completes with the tool face's handoff, as without a model", async () => {
  const asTask = await runWorkflow(LabelledReport, { arguments: { project: 'atlas' }, task: true });
  const asTool = await runWorkflow(LabelledReport, { arguments: { project: 'atlas' }, face: 'tool' });
  expect(asTool.status).toBe('handoff');
  expect(asTask.status).toBe('handoff');
  expect(asTask.meta.stoppedAt).toBe(asTool.meta.stoppedAt);
  expect(asTask.meta.reason).toBe(asTool.meta.reason);
  expect(asTask.calls.map((call) => call.tool)).toEqual(['fetch_figures']);
});

test('a question to the model answered: the task answers it through tasks/update', async () => {
  const run = await runWorkflow(LabelledReport, { arguments: { project: 'atlas' }, answers: { 'summary/total': '7' }, task: true });
  expect(run.status).toBe('completed');
  expect(run.calls.at(-1)).toEqual({ tool: 'summarize', arguments: { total: 7 } });
});

test("task: true with face: 'prompt' is refused before anything runs, naming both options and the fix", async () => {
  const refused = runWorkflow(Report, { arguments: { project: 'a' }, task: true, face: 'prompt' });
  await expect(refused).rejects.toThrow(RunWorkflowOptionError);
  await expect(refused).rejects.toThrow(/task.*face: 'prompt'.*Fix: /);
});

test("an answers entry for the model's question that gives no answer in a task is refused naming its key and the fix", async () => {
  const run = runWorkflow(LabelledReport, { arguments: { project: 'atlas' }, answers: { 'summary/total': () => undefined }, task: true });
  await expect(run).rejects.toThrow(RunWorkflowOptionError);
  await expect(run).rejects.toThrow("answers['summary/total'] gave no answer to a question to the model in a task");
});
