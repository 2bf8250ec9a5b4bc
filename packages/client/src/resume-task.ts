import type { Client } from '@modelcontextprotocol/client';
import { followTask, type DetailedTask } from './follow-task';
import { taskRequest } from './task-requests';
import { tapTaskResults } from './task-result-tap';
import type { FollowOptions, ToolResult } from './task-types';

/**
 * Picks a task up again — after the client restarted, on another connection, or after a call
 * rejected with a `TaskInputError` — and follows it as `callTool` does: polls `tasks/get`, answers
 * its questions with `onInput`, cancels it when `signal` aborts, and resolves with the tool's
 * `CallToolResult`. An unknown task id (never created, expired, or another client's) rejects with
 * the server's `-32602`.
 *
 * @example
 * const taskId = await readFile('task-id.txt', 'utf8'); // kept from onStatus before the restart
 * const result = await resumeTask(client, taskId, { onInput: askTheUser });
 */
export async function resumeTask(client: Client, taskId: string, options: FollowOptions = {}): Promise<ToolResult> {
  tapTaskResults(client);
  const task = await taskRequest(client, 'tasks/get', { taskId }, { tasks: true, signal: options.signal });
  return followTask(client, task as unknown as DetailedTask, options);
}
