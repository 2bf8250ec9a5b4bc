import 'reflect-metadata';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, defineTool } from '@mcpflow/decorators';
import { WorkflowServer, memoryTasks } from '@mcpflow/core/v2';
import { recordSpans, spansWhen } from '../helpers/tracing';
import { callTool, resumeTask, TaskFailedError, TaskInputError } from '@mcpflow/client';
import { POLL_MS, serveInProcess } from '../helpers/task-serving';
import { taskServer } from './task-workflows';

/**
 * A task parked by one version of a workflow and resumed by another (a deploy while it waited): the
 * round cannot open the task's saved run. The client reads a failed task that tells a task client
 * what to do (not the MRTR advice to retry without requestState), and the round's span ends with
 * the error instead of staying open.
 */
const recorded = recordSpans();

const scale = defineTool('scale', { description: 'Scales', inputSchema: { replicas: z.number() } }, async ({ replicas }) => ({
  content: [{ type: 'text' as const, text: `scaled to ${replicas}` }],
}));

/** The next version of tests/tasks' guarded_deploy: other steps, so its paused runs are not this one's. */
@Workflow({
  name: 'guarded_deploy',
  description: 'Scales once the user says how far',
  arguments: { project: z.string() },
  expose: { prompt: false, tool: { task: 'optional' } },
})
class GuardedDeployV2 {
  @Step({ tool: scale, args: { replicas: askUser('How many replicas for {project}?', { schema: z.number() }) } })
  @Bind('scaled')
  scaled!: unknown;
}

test('a task resumed by another version of its workflow fails with what a task client should do, and its round span ends', async () => {
  const store = memoryTasks();
  const before = serveInProcess(() => taskServer(store));
  const after = serveInProcess(() => new WorkflowServer({ name: 'task-tests', version: '2.0.0' }, { tasks: store }).use(GuardedDeployV2));
  try {
    // The user leaves the question for later (no onInput); a deploy happens; the answer reaches the new version.
    const waiting = (await callTool(
      await before.connect(),
      { name: 'guarded_deploy', arguments: { project: 'atlas' } },
      { pollIntervalMs: POLL_MS },
    ).catch((error: unknown) => error)) as TaskInputError;
    expect(waiting).toBeInstanceOf(TaskInputError);
    const inputResponses = {
      'deployed/replicas': { action: 'accept', content: { replicas: 2 } },
      'deployed/confirm': { action: 'accept', content: { confirm: true } },
    };
    const failed = (await resumeTask(await after.connect(), waiting.taskId, {
      pollIntervalMs: POLL_MS,
      onInput: () => inputResponses,
    }).catch((error: unknown) => error)) as TaskFailedError;
    expect(failed).toBeInstanceOf(TaskFailedError);
    expect(failed.error!.message).toContain("another version of workflow 'guarded_deploy'");
    expect(failed.error!.message).toContain('Call tool guarded_deploy again for a new task');
    expect(failed.error!.message).not.toContain('requestState');

    const rounds = (
      await spansWhen(recorded.spans, (spans) => spans.filter((span) => span.name === 'tools/call guarded_deploy').length === 2)
    ).filter((span) => span.kind === SpanKind.SERVER && span.name === 'tools/call guarded_deploy');
    expect(rounds[1].status.code).toBe(SpanStatusCode.ERROR);
  } finally {
    await before.close();
    await after.close();
  }
});
