import type { Client, JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { TaskSupportError } from './task-errors';

/** The `_meta` key under which a tapped `tools/call` answer carries the `CreateTaskResult` it was. */
export const CREATED_TASK_META = 'mcpflow/createdTask';

const TAPPED = Symbol.for('@mcpflow/client.taskResultTap');

type Deliver = NonNullable<Transport['onmessage']> & { [TAPPED]?: true };

/**
 * Lets the client's own request path take a `CreateTaskResult`. The SDK 2.x `Client` knows the
 * result types `complete` and `input_required` only, and rejects a `tools/call` answered with
 * `resultType: "task"` (`UNSUPPORTED_RESULT_TYPE`) keeping none of it, so the task's id would be
 * lost. This taps the client's transport once: such an answer is handed on as a `complete` result
 * with no content that carries the whole `CreateTaskResult` in `_meta["mcpflow/createdTask"]`;
 * every other message goes on untouched. (A `resultType: "task"` answer reaches a client only when
 * a request declared the tasks extension, so no other call of the client sees a difference.)
 * To follow the SDK's own tasks client (`client/ext/tasks`, a draft) once it ships: docs/tasks.md.
 */
export function tapTaskResults(client: Client): void {
  const transport = client.transport;
  const deliver = transport?.onmessage as Deliver | undefined;
  if (!transport || !deliver)
    throw new TaskSupportError(
      'The client is not connected: await client.connect(transport) before calling a tool through @mcpflow/client.',
    );
  if (deliver[TAPPED]) return;
  const tapped: Deliver = (message, extra) => deliver.call(transport, asComplete(message), extra);
  tapped[TAPPED] = true;
  transport.onmessage = tapped;
}

function asComplete(message: JSONRPCMessage): JSONRPCMessage {
  const result = (message as { result?: Record<string, unknown> }).result;
  if (result?.resultType !== 'task') return message;
  return { ...message, result: { resultType: 'complete', content: [], _meta: { [CREATED_TASK_META]: result } } } as JSONRPCMessage;
}
