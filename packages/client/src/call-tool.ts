import type { Client } from '@modelcontextprotocol/client';
import { followTask, type DetailedTask } from './follow-task';
import { TaskSupportError } from './task-errors';
import { taskRequest } from './task-requests';
import { CREATED_TASK_META, tapTaskResults } from './task-result-tap';
import { TASKS_EXTENSION, type CallToolOptions, type InputRequests, type ToolCall, type ToolResult } from './task-types';

/** More rounds of questions before a task than any tool asks. */
const MAX_ROUNDS = 100;

/**
 * Calls a tool through a connected SDK 2.x `Client` (stdio or Streamable HTTP) and resolves with
 * its `CallToolResult`, whether the tool ran inside the request or as an MCP task (the tasks
 * extension, SEP-2663, protocol 2026-07-28):
 *
 * - the request declares the tasks extension (`task: 'auto'`, the default, when the server
 *   advertises it; `'always'`; never with `'never'`); a plain result passes through unchanged;
 * - questions asked before the task exists (an `input_required` round) go to `onInput`, and the
 *   call is retried with the answers; without `onInput` the SDK fulfils them as it does for any call
 *   (through the client's own elicitation handler);
 * - once the server answers with a task, the call polls `tasks/get` at the server's
 *   `pollIntervalMs`, hands each `input_required` round to `onInput` and sends the answers with
 *   `tasks/update`; without `onInput` it rejects with a `TaskInputError` naming the questions and
 *   the task id (the task keeps waiting: `resumeTask` answers it later);
 * - `signal` cancels the task (`tasks/cancel`: the step running on the server is aborted, later
 *   steps never start) and rejects with the signal's reason;
 * - `onStatus` hears the task when it is created and at each change of status or status message.
 *
 * A task that ends `failed` rejects with a `TaskFailedError`, one cancelled by someone else with a
 * `TaskCancelledError`.
 *
 * @example
 * const result = await callTool(client, { name: 'nightly_build', arguments: { branch: 'main' } }, {
 *   onInput: async (requests) => ({ [Object.keys(requests)[0]]: { action: 'accept', content: { confirm: true } } }),
 *   onStatus: (task) => console.error(task.status, task.statusMessage ?? ''),
 * });
 */
export async function callTool(client: Client, call: ToolCall, options: CallToolOptions = {}): Promise<ToolResult> {
  tapTaskResults(client);
  const tasks = declaresTasks(client, options.task ?? 'auto', call.name);
  let params: Record<string, unknown> = { name: call.name, arguments: { ...call.arguments } };
  for (let round = 0; round <= MAX_ROUNDS; round += 1) {
    const answer = await request(client, params, tasks, options);
    const created = createdTask(answer);
    if (created) return followTask(client, created, options, call.name);
    // Without onInput the SDK fulfils a round itself (allowInputRequired is off): only a result comes back.
    if (answer.resultType !== 'input_required' || !options.onInput) return answer as ToolResult;
    const requests = (answer.inputRequests ?? {}) as InputRequests;
    const inputResponses = await options.onInput(requests, options.signal ?? new AbortController().signal);
    params = { name: call.name, arguments: { ...call.arguments }, inputResponses, requestState: answer.requestState };
  }
  throw new Error(`Tool ${call.name} was still asking questions after ${MAX_ROUNDS} rounds, before it answered.`);
}

/**
 * One `tools/call`. Without the tasks extension the signal aborts the request itself. With it, the
 * server may create a task before it answers, and a task whose id never arrived could not be
 * cancelled: so the call rejects as soon as the signal aborts, and the answer, when it comes, has
 * its task cancelled.
 */
async function request(client: Client, params: Record<string, unknown>, tasks: boolean, options: CallToolOptions) {
  const send = (signal?: AbortSignal) =>
    taskRequest(client, 'tools/call', params, {
      tasks,
      elicitation: options.onInput !== undefined,
      meta: options.meta,
      signal,
      allowInputRequired: options.onInput !== undefined,
    });
  const { signal } = options;
  if (!tasks || !signal) return send(signal);
  signal.throwIfAborted();
  const answer = send();
  let stop: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => {
      reject(signal.reason);
      void answer
        .then((late) => {
          const created = createdTask(late);
          if (created) return taskRequest(client, 'tasks/cancel', { taskId: created.taskId }, { tasks: true });
        })
        .catch(() => undefined);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([answer, aborted]);
  } finally {
    signal.removeEventListener('abort', stop!);
  }
}

/** The `CreateTaskResult` a `tools/call` answer was, if it was one (see `tapTaskResults`). */
function createdTask(answer: Record<string, unknown>): DetailedTask | undefined {
  return (answer._meta as Record<string, unknown> | undefined)?.[CREATED_TASK_META] as DetailedTask | undefined;
}

/** Whether this call declares the tasks extension. */
function declaresTasks(client: Client, mode: NonNullable<CallToolOptions['task']>, tool: string): boolean {
  if (mode === 'never') return false;
  const served = client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION] !== undefined;
  if (mode === 'always' && !served)
    throw new TaskSupportError(
      `callTool(${tool}, { task: 'always' }): the server does not advertise the ${TASKS_EXTENSION} extension (capabilities.extensions), so it runs no task. Use task: 'auto' to call it in the request.`,
    );
  return served;
}
