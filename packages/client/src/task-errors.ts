import type { InputRequests } from './task-types';

/**
 * A task asked a question and the call has no `onInput` to answer it. The task keeps waiting on the
 * server (until its `ttlMs`): answer it later with `resumeTask(client, taskId, { onInput })`.
 */
export class TaskInputError extends Error {
  override readonly name = 'TaskInputError';
  /** The keys of the questions it asks. */
  readonly keys: readonly string[];

  constructor(
    /** The task that waits. */
    readonly taskId: string,
    /** The questions it asks, keyed by the server's ids, as `onInput` would have had them (to put to the user before resuming). */
    readonly requests: InputRequests,
    tool?: string,
  ) {
    const keys = Object.keys(requests);
    const what = `Task ${taskId}${tool === undefined ? '' : ` of tool ${tool}`}`;
    const questions = keys.map((key) => `'${key}'`).join(', ');
    super(
      `${what} asks for input (${questions}) and the call has no onInput: pass onInput to callTool to answer it, or answer it later with resumeTask(client, '${taskId}', { onInput }).`,
    );
    this.keys = keys;
  }
}

/** A task ended `failed`: the server could not run it (a protocol-level error, carried as the server sent it). */
export class TaskFailedError extends Error {
  override readonly name = 'TaskFailedError';

  constructor(
    readonly taskId: string,
    /** The JSON-RPC error the task carries, when it carries one. */
    readonly error: { readonly code: number; readonly message: string; readonly data?: unknown } | undefined,
    statusMessage?: string,
  ) {
    super(
      `Task ${taskId} failed: ${error?.message ?? statusMessage ?? 'the server gave no reason'}${error ? ` (code ${error.code})` : ''}.`,
    );
  }
}

/** A task ended `cancelled` while this call followed it, by another client or the server (not by this call's signal). */
export class TaskCancelledError extends Error {
  override readonly name = 'TaskCancelledError';

  constructor(
    readonly taskId: string,
    statusMessage?: string,
  ) {
    super(`Task ${taskId} was cancelled${statusMessage ? `: ${statusMessage}` : ''}.`);
  }
}

/** A call needs what the connection cannot give: a connected client, or a server that serves tasks (`task: 'always'`). */
export class TaskSupportError extends Error {
  override readonly name = 'TaskSupportError';
}
