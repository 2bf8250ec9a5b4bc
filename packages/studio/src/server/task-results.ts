import type { Transport } from '@modelcontextprotocol/client';

/** The tasks extension (SEP-2663), as servers advertise it and clients declare it. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `_meta` mark of a `tools/call` answer that created a task (see `readTaskResults`). */
export const TASK_CREATED = 'mcpflow-studio/task-created';

/**
 * Lets the client read a `tools/call` answer that created a task. The 2.x `Client` refuses a result
 * of `resultType: "task"` (it knows only `complete` and `input_required`) and keeps none of it in
 * its error; this hands such an answer on as a `complete` one, marked in its `_meta`, so the
 * studio reads the task's id and status from it. Every other message goes on untouched.
 */
export function readTaskResults(transport: Transport): void {
  const deliver = transport.onmessage;
  if (!deliver) return;
  transport.onmessage = (message, extra) => {
    const result = (message as { result?: Record<string, unknown> }).result;
    if (result?.resultType === 'task') {
      const meta = { ...(result._meta as object | undefined), [TASK_CREATED]: true };
      message = { ...message, result: { ...result, resultType: 'complete', content: [], _meta: meta } } as typeof message;
    }
    deliver.call(transport, message, extra);
  };
}
