import { isTerminalTaskStatus, type TaskRecord, type TaskView } from './task-store';
import { TASKS_EXTENSION } from './tasks-support';

/**
 * The MCP tasks extension's wire (SEP-2663, protocol 2026-07-28), as the pinned
 * `@modelcontextprotocol/conformance` checks it — in this one file, so that it can give way to the
 * SDK's own once it ships one. Results are plain JSON; errors are codes and messages the line turns
 * into its protocol errors.
 */

/** JSON-RPC error codes of the task surface. */
export const TASK_ERROR_CODES = {
  /** An unknown task id, a task of another principal (the same answer), bad params, a wrong answer. */
  invalidParams: -32602,
  /** A protocol-level failure of a task's run (`failed`). */
  internalError: -32603,
  /** A `required` task tool, or a task method, from a client that did not declare the extension. */
  missingCapability: -32021,
} as const;

/** A JSON-RPC error as a `failed` task carries it. */
export interface TaskError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** What `-32021` carries: the capability the client must declare. */
export const REQUIRED_TASKS_CAPABILITY = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } } as const;

/** The ack of `tasks/update` and `tasks/cancel`: no task envelope. */
export function taskAck(): { resultType: 'complete'; _meta?: Record<string, unknown> } {
  return { resultType: 'complete' };
}

/** The fields every task result shares: ids, status, ISO times, integer ms. */
function taskFields(record: TaskView) {
  return {
    taskId: record.taskId,
    status: record.status,
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttlMs: Math.round(record.ttlMs),
    pollIntervalMs: Math.round(record.pollIntervalMs),
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    ...runningStepMeta(record),
  };
}

/** The `_meta` key of a task's running step (a `RunningStep`: workflow, step, stepIndex, steps, version). */
const TASK_META_KEY = 'mcpflow/task';

/**
 * `_meta["mcpflow/task"]`: the step a live task runs or waits at, value-free, as its round last
 * wrote it (with the statusMessage); nothing once the task ended, or before its first step.
 */
function runningStepMeta(record: TaskView): { _meta?: Record<string, unknown> } {
  if (record.step === undefined || isTerminalTaskStatus(record.status)) return {};
  try {
    return { _meta: { [TASK_META_KEY]: JSON.parse(record.step) as unknown } };
  } catch {
    return {};
  }
}

/** `tools/call`'s answer once the task exists (never a `requestState`, never a result). */
export function createTaskResult(record: TaskRecord): Record<string, unknown> {
  return { resultType: 'task', ...taskFields(record) };
}

/** What a DetailedTask inlines besides the record's own fields, opened by the kit. */
export interface TaskDetails {
  /** The questions still open (`input_required`), keyed by their ids. */
  readonly inputRequests?: Readonly<Record<string, unknown>>;
  /** The tool's result (`completed`). */
  readonly result?: unknown;
  /** The protocol error (`failed`). */
  readonly error?: TaskError;
}

/** `tasks/get`'s answer: the task, with what its status inlines. */
export function detailedTask(record: TaskView, details: TaskDetails): Record<string, unknown> {
  return {
    resultType: 'complete',
    ...taskFields(record),
    ...(record.status === 'input_required' && details.inputRequests ? { inputRequests: details.inputRequests } : {}),
    ...(record.status === 'completed' && details.result !== undefined ? { result: details.result } : {}),
    ...(record.status === 'failed' && details.error ? { error: details.error } : {}),
  };
}

/** The task id of a task method's params, or why there is none. */
export function taskIdOf(method: string, params: Readonly<Record<string, unknown>>): string | { readonly problem: string } {
  const { taskId } = params;
  if (typeof taskId === 'string' && taskId.length > 0) return taskId;
  return { problem: `${method}: params.taskId must be the task id a tools/call returned (a non-empty string), not ${describe(taskId)}.` };
}

/** Why a `tasks/update`'s `inputResponses` cannot be read (`-32602`), or `undefined` when it is an object of answers. */
export function inputResponsesProblem(responses: unknown): string | undefined {
  if (typeof responses === 'object' && responses !== null && !Array.isArray(responses)) return undefined;
  return `tasks/update: params.inputResponses must be an object of answers keyed by the ids of inputRequests, not ${describe(responses)}.`;
}

/** The message of `-32602` for an unknown task — and for one of another principal, which must not be told apart. */
export function unknownTaskMessage(method: string, taskId: string): string {
  return `${method}: no task '${shortId(taskId)}' on this server — it never existed, expired, its task store lost it (a Redis restarted without its data), or belongs to another client. Call the tool again for a new task.`;
}

/** The message of `-32021` on a task method from a client that did not declare the extension. */
export function undeclaredMessage(method: string): string {
  return `${method}: this request does not declare the ${TASKS_EXTENSION} extension; declare it in the client's capabilities (capabilities.extensions) to use tasks.`;
}

/** The message of `-32021` on a `required` task tool from a client that did not declare the extension. */
export function taskRequiredMessage(tool: string): string {
  return `Tool ${tool} runs only as a task: declare the ${TASKS_EXTENSION} extension in the client's capabilities (capabilities.extensions), then call it again.`;
}

/**
 * Why a client's answer does not fit the question it answers, or `undefined` when it may: an
 * elicitation answer is `accept` (with content whose fields have the requested types), `decline`
 * or `cancel`; a sampling answer holds content. The run reads the answer in full when it resumes.
 */
export function answerProblem(request: unknown, response: unknown): string | undefined {
  if (typeof response !== 'object' || response === null || Array.isArray(response)) return `it is ${describe(response)}, not an object`;
  const method = (request as { method?: unknown } | undefined)?.method;
  const answer = response as Record<string, unknown>;
  if (method === 'sampling/createMessage') return answer.content === undefined ? 'it holds no content (a sampling result)' : undefined;
  if (answer.action === 'decline' || answer.action === 'cancel') return undefined;
  if (answer.action !== 'accept') return `its action is ${describe(answer.action)}; it must be 'accept', 'decline' or 'cancel'`;
  const content = answer.content;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return 'an accepted answer needs content (an object)';
  const schema = (request as { params?: { requestedSchema?: RequestedSchema } }).params?.requestedSchema;
  return schema ? contentProblem(schema, content as Record<string, unknown>) : undefined;
}

interface RequestedSchema {
  readonly properties?: Readonly<Record<string, { readonly type?: string; readonly enum?: readonly unknown[] }>>;
  readonly required?: readonly string[];
}

function contentProblem(schema: RequestedSchema, content: Record<string, unknown>): string | undefined {
  for (const field of schema.required ?? []) if (content[field] === undefined) return `it has no '${field}'`;
  for (const [field, property] of Object.entries(schema.properties ?? {})) {
    const value = content[field];
    if (value === undefined) continue;
    if (property.enum && !property.enum.includes(value)) return `'${field}' is not one of the choices`;
    const type = property.type;
    const fits =
      type === undefined ||
      (type === 'integer' ? Number.isInteger(value) : type === 'number' ? typeof value === 'number' : typeof value === type);
    if (!fits) return `'${field}' must be ${type === 'integer' ? 'an integer' : `a ${type}`}, not ${describe(value)}`;
  }
  return undefined;
}

/** The first characters of an id, enough to recognise it in a message, never more than the client sent. */
function shortId(taskId: string): string {
  return taskId.length > 48 ? `${taskId.slice(0, 48)}…` : taskId;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value === undefined) return 'missing';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
