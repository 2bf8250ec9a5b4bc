import type { Client } from '@modelcontextprotocol/client';
import { TaskCancelledError, TaskFailedError, TaskInputError } from './task-errors';
import { taskRequest } from './task-requests';
import type { FollowOptions, InputRequests, TaskStatus, ToolResult } from './task-types';

/** A task as `tasks/get` answers it: its status and what that status inlines. */
export interface DetailedTask extends TaskStatus {
  readonly inputRequests?: InputRequests;
  readonly result?: ToolResult;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** The interval when a server names none. */
const DEFAULT_POLL_MS = 1000;

/**
 * Follows a task to its end: polls `tasks/get` at the server's interval, hands each new round of
 * questions to `onInput` and sends its answers with `tasks/update`, and resolves with the tool's
 * result. When `signal` aborts it sends `tasks/cancel` and rejects with the signal's reason.
 */
export async function followTask(client: Client, first: DetailedTask, options: FollowOptions, tool?: string): Promise<ToolResult> {
  const { taskId } = first;
  const asked = new Set<string>();
  let task = first;
  let heard: TaskStatus | undefined;
  try {
    for (;;) {
      heard = tell(options, task, heard);
      if (task.status === 'completed') return task.result ?? { content: [] };
      if (task.status === 'failed') throw new TaskFailedError(taskId, task.error, task.statusMessage);
      if (task.status === 'cancelled') throw new TaskCancelledError(taskId, task.statusMessage);
      if (task.status === 'input_required') await answer(client, task, asked, options, tool);
      await pause(options.pollIntervalMs ?? task.pollIntervalMs ?? DEFAULT_POLL_MS, options.signal);
      task = (await taskRequest(client, 'tasks/get', { taskId }, { tasks: true, signal: options.signal })) as unknown as DetailedTask;
    }
  } catch (error) {
    if (!options.signal?.aborted) throw error;
    // Aborted: the task stops wherever it runs (its step's signal fires, no later step starts).
    await taskRequest(client, 'tasks/cancel', { taskId }, { tasks: true }).catch(() => undefined);
    throw options.signal.reason;
  }
}

/** Puts the questions not yet answered to `onInput` and sends its answers; without `onInput` the call rejects. */
async function answer(client: Client, task: DetailedTask, asked: Set<string>, options: FollowOptions, tool?: string): Promise<void> {
  const fresh = Object.fromEntries(Object.entries(task.inputRequests ?? {}).filter(([key]) => !asked.has(key)));
  const keys = Object.keys(fresh);
  if (keys.length === 0) return;
  if (!options.onInput) throw new TaskInputError(task.taskId, fresh, tool);
  const inputResponses = await options.onInput(fresh, options.signal ?? new AbortController().signal);
  options.signal?.throwIfAborted();
  await taskRequest(client, 'tasks/update', { taskId: task.taskId, inputResponses }, { tasks: true, signal: options.signal });
  for (const key of Object.keys(inputResponses)) asked.add(key);
}

/** Tells `onStatus` of the task when its status or status message changed; returns what it was told. */
function tell(options: FollowOptions, task: DetailedTask, heard: TaskStatus | undefined): TaskStatus {
  if (heard && heard.status === task.status && heard.statusMessage === task.statusMessage) return heard;
  const { inputRequests: _inputs, result: _result, error: _error, ...status } = task;
  options.onStatus?.(status);
  return status;
}

/** Waits `ms` (0: not at all, the next poll goes at once), or rejects with the signal's reason as soon as it aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    if (ms <= 0) return resolve();
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
