import { SpanKind } from '@opentelemetry/api';
import { memoryTasks } from '@mcpflow/core/v2';
import { recordSpans, spansWhen } from '../helpers/tracing';
import { callTool } from '@mcpflow/client';
import { RawTaskWire } from '../helpers/raw-task-wire';
import { POLL_MS, serveInProcess } from '../helpers/task-serving';
import { taskServer } from './task-workflows';

/**
 * A task's rounds are spans of one trace, the first a child of the request that made the task; the
 * debug log says when a task is created, runs a round, is cancelled and expires — without values, and
 * naming a task by its ref (an HMAC of its id), never by its id.
 */
const recorded = recordSpans();

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';

test("a task's rounds are spans of the creating request's trace", async () => {
  const served = serveInProcess(() => taskServer());
  try {
    const meta = { traceparent: `00-${TRACE_ID}-${PARENT}-01` };
    const answers = {
      'deployed/replicas': { action: 'accept', content: { replicas: 2 } },
      'deployed/confirm': { action: 'accept', content: { confirm: true } },
    };
    const result = await callTool(
      await served.connect(),
      { name: 'guarded_deploy', arguments: { project: 'atlas' } },
      { meta, pollIntervalMs: POLL_MS, onInput: () => answers },
    );
    expect(result.structuredContent).toMatchObject({ status: 'completed' });
    const rounds = (
      await spansWhen(recorded.spans, (spans) => spans.filter((span) => span.name === 'tools/call guarded_deploy').length === 2)
    ).filter((span) => span.kind === SpanKind.SERVER && span.name === 'tools/call guarded_deploy');
    expect(rounds.map((span) => span.spanContext().traceId)).toEqual([TRACE_ID, TRACE_ID]);
    expect(rounds.some((span) => span.parentSpanContext?.spanId === PARENT)).toBe(true);
  } finally {
    await served.close();
  }
});

test('DEBUG lines: created, round, cancelled, expired — never an argument', async () => {
  const lines: string[] = [];
  const store = memoryTasks({ ttlMs: 30 });
  const served = serveInProcess(() => taskServer(store, { logger: (line) => lines.push(line), telemetry: false }));
  const client = new RawTaskWire(served.fetch);
  try {
    const { taskId } = (await client.call('long_wait', {})).result!;
    await client.request('tasks/cancel', { taskId });
    // A task is named by the first characters of its ref (an HMAC of its id), never by its id, which gives access to it.
    const short = /^mcpflow task long_wait created: (\S{8})$/.exec(lines.find((line) => line.includes('created')) ?? '')![1];
    expect(lines.join('\n')).not.toContain(taskId.slice(0, 8));
    expect(lines).toEqual(
      expect.arrayContaining([
        `mcpflow task long_wait created: ${short}`,
        `mcpflow task long_wait round: ${short}`,
        `mcpflow task long_wait cancelled: ${short}`,
      ]),
    );
    const report = (await client.call('report', { project: 'secret-project-name' })).result!.taskId as string;
    const reportRef = /^mcpflow task report created: (\S{8})$/.exec(
      lines.find((line) => line.startsWith('mcpflow task report created')) ?? '',
    )![1];
    while (!lines.includes(`mcpflow task expired: ${reportRef}`)) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(lines.join('\n')).not.toContain(report.slice(0, 8));
    expect(lines.join('\n')).not.toContain('secret-project-name');
  } finally {
    await served.close();
  }
});
