import type { CallToolResult, CreateMessageRequestParams, ElicitRequestFormParams } from '@modelcontextprotocol/client';

/** The tasks extension (SEP-2663), as servers advertise it and clients declare it under `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Whether `callTool` lets the server run the tool as a task:
 * - `'auto'` (the default): declares the tasks extension when the server advertises it; the server
 *   decides (a task tool answers with a task, any other tool with its result);
 * - `'always'`: declares it, and rejects before calling when the server does not advertise it;
 * - `'never'`: declares nothing, so the tool runs inside the request (a tool that runs only as a
 *   task answers `-32021`).
 */
export type TaskMode = 'auto' | 'always' | 'never';

/** Where a task is: `working`, waiting for answers, or ended. */
export type TaskStatusWord = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** A task as the server describes it (`CreateTaskResult`, and each `tasks/get`), without what it inlines. */
export interface TaskStatus {
  readonly taskId: string;
  readonly status: TaskStatusWord;
  /** What the server says the task is doing, free of values (mcpflow: `step 2 of 4: build`). */
  readonly statusMessage?: string;
  /** ISO 8601 times. */
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  /** How long the server keeps the task. */
  readonly ttlMs: number;
  /** How often the server asks to be polled. */
  readonly pollIntervalMs: number;
  /** The server's own `_meta` (mcpflow: `"mcpflow/task"`, the step that runs or waits). */
  readonly _meta?: Readonly<Record<string, unknown>> & { readonly 'mcpflow/task'?: TaskStep };
}

/**
 * The step a task runs or waits at, as an mcpflow server tells it in `tasks/get`'s
 * `_meta["mcpflow/task"]` (names and numbers, never a value).
 */
export interface TaskStep {
  /** The workflow's name. */
  readonly workflow: string;
  /** The step's name. */
  readonly step: string;
  /** Its index among the workflow's steps, from 0. */
  readonly stepIndex: number;
  /** How many steps the workflow has. */
  readonly steps: number;
  /** The workflow's declared `version` the round runs on, when it declares one. */
  readonly version?: string;
}

/**
 * A question the server puts to the client, as an MCP request it would have sent: a form to fill
 * (`elicitation/create`, with the `requestedSchema` the answer's content must fit), or a question to
 * the client's model (`sampling/createMessage`, only when the client declared sampling).
 */
export type InputRequest =
  | { readonly method: 'elicitation/create'; readonly params: ElicitRequestFormParams }
  | { readonly method: 'sampling/createMessage'; readonly params: CreateMessageRequestParams };

/** The questions of one round, keyed by the ids the server minted for them. */
export type InputRequests = Readonly<Record<string, InputRequest>>;

/**
 * The answers to a round, keyed as its questions were: an elicitation answer (`{ action: 'accept',
 * content }`, `{ action: 'decline' }` or `{ action: 'cancel' }`) or a sampling result. A round may be
 * answered in part; the task goes on once every question has its answer.
 */
export type InputResponses = Readonly<Record<string, unknown>>;

/**
 * Answers a round of questions. `signal` aborts when the call is aborted (its `signal`) or the
 * question is no longer open; an answer after that is not sent.
 */
export type InputHandler = (requests: InputRequests, signal: AbortSignal) => InputResponses | Promise<InputResponses>;

/** How `callTool` and `resumeTask` follow a task. */
export interface FollowOptions {
  /** Answers the questions a task (or a round before it) asks; without it a question rejects the call, naming it and the task. */
  readonly onInput?: InputHandler;
  /** Aborting it cancels the task (`tasks/cancel`) and rejects the call with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Hears the task when it is created and each time its status or status message changes. */
  readonly onStatus?: (task: TaskStatus) => void;
  /**
   * Polls at this interval instead of the server's `pollIntervalMs` (0: each poll at once): for a
   * server in the same process (a test, a benchmark); over a network, leave it to the server.
   */
  readonly pollIntervalMs?: number;
}

/** How `callTool` calls a tool. */
export interface CallToolOptions extends FollowOptions {
  /** Whether the tool may run as a task; default `'auto'`. */
  readonly task?: TaskMode;
  /** More `_meta` entries for the `tools/call` request (a `traceparent`, a server's own keys). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** The tool and its arguments, as `tools/call` takes them. */
export interface ToolCall {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, unknown>>;
}

/** What a call resolves with: the tool's result, whether it ran in the request or as a task. */
export type ToolResult = CallToolResult;
