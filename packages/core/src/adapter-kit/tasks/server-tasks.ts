import { InvalidServerOptionError, SealedStateError } from '../../engine';
import type { TaskSupport } from '../../model';
import type { AdapterLine } from '../adapter-line';
import type { PauseOptions } from '../pause/pause-options';
import { parsePromptArguments } from '../prompts/parse-prompt-arguments';
import type { ToolHandle } from '../registry/handles';
import { requestPrincipal, type PrincipalOption } from '../run/request-principal';
import { keyedDigests, stateSealer, taskSealer } from '../run/state-sealers';
import { invokeTool, validateToolInput } from '../tools/call-tool';
import { memoryTasks } from './memory-tasks';
import { TaskDispatch, type RoundServer } from './task-dispatch';
import { TaskRounds } from './task-rounds';
import { messageOf, shortId, type PlainTaskTool, type TaskCall, type TaskTool, type WorkflowTaskTool } from './task-tools';
import { TaskLimitError, isTerminalTaskStatus, type TaskRecord, type TaskStore, type TaskView } from './task-store';
import { newTaskId, TaskValues } from './task-values';
import { TASKS_EXTENSION, type TaskMethods, type TasksSupport } from './tasks-support';
import {
  REQUIRED_TASKS_CAPABILITY,
  TASK_ERROR_CODES,
  answerProblem,
  createTaskResult,
  inputResponsesProblem,
  detailedTask,
  taskAck,
  taskIdOf,
  taskRequiredMessage,
  undeclaredMessage,
  unknownTaskMessage,
  type TaskDetails,
} from './tasks-wire';

/** How many times a `tasks/update` reads the task again when another change got in first. */
const UPDATE_ATTEMPTS = 8;

/** The default store: one per process, shared by every server it builds (`serveHttp` builds one per request). */
let processStore: TaskStore | undefined;

/**
 * One server's side of MCP tasks (DESIGN §2.13): which of its tools run as tasks, the `tools/call`
 * that makes one, the `tasks/get`, `tasks/update` and `tasks/cancel` that answer for it, and the
 * rounds that run it. The store keeps the tasks (`memoryTasks()` by default, one per process); the
 * wire is `tasks-wire.ts`; the engine knows nothing of tasks.
 *
 * @example
 * ```ts
 * const tasks = new ServerTasks(server, line, line.tasks, options);
 * tasks.serveWorkflow('build', 'optional', { plan, inputSchema, round });
 * ```
 */
export class ServerTasks<Server, Context> implements RoundServer {
  readonly store: TaskStore;
  private readonly tools = new Map<string, TaskTool<Context>>();
  private readonly dispatch: TaskDispatch;
  private readonly rounds: TaskRounds<Server, Context>;
  private attached = false;

  constructor(
    private readonly server: Server,
    private readonly line: AdapterLine<Server, Context>,
    private readonly support: TasksSupport<Server, Context>,
    private readonly options: {
      readonly tasks?: TaskStore;
      readonly pause?: PauseOptions;
      readonly maxTraceBytes: number;
      readonly principal?: PrincipalOption;
    },
    private readonly log?: (line: string) => void,
  ) {
    this.store = storeOf(options.tasks);
    // Shared by instances: what one seals, another opens, and a process's own random key cannot.
    if (this.store.checkpoints && !options.pause?.keys?.length) {
      throw new InvalidServerOptionError(
        'tasks',
        'is a store shared by several instances (bullmqTasks), whose tasks are sealed with pause.keys: pass pause: { keys: [a secret of at least 32 bytes, the same on every instance] }.',
      );
    }
    this.dispatch = TaskDispatch.of(this.store);
    const { store, dispatch, tools } = this;
    this.rounds = new TaskRounds({ line, support, store, dispatch, tools, options, log, values: (taskId) => this.values(taskId) });
  }

  /** Serves a workflow's tool face as a task tool. */
  serveWorkflow(name: string, support: TaskSupport, tool: Omit<WorkflowTaskTool<Context>, 'kind' | 'support'>): void {
    this.serve(name, { kind: 'workflow', support, ...tool });
  }

  /** Serves a plain tool as a task tool (a `defineTool` with `task`). */
  servePlain(name: string, support: TaskSupport, handle: ToolHandle): void {
    this.support.markTool(handle, support);
    this.serve(name, { kind: 'plain', support, handle });
  }

  /** Whether `tools/call` of `name` goes through tasks. */
  handles(name: unknown): name is string {
    return typeof name === 'string' && this.tools.has(name);
  }

  /** Resolves once the store runs rounds in this process; rejects naming why it could not start. */
  ready(): Promise<void> {
    return this.dispatch.ready();
  }

  /**
   * A client's `tools/call` of a task tool: a task when the client declared the extension (its
   * `CreateTaskResult` once `tasks/get` finds it), else the plain call (`sync`) — or, for a
   * `required` tool, error -32021. A call that settles at once (a plain tool's handler that needs
   * no I/O, an MRTR round before a workflow's first question is answered) answers in the request.
   */
  async call(name: string, raw: unknown, context: Context, sync: () => unknown): Promise<unknown> {
    const tool = this.tools.get(name)!;
    if (!this.declares(context)) {
      if (tool.support === 'required')
        throw this.support.error(TASK_ERROR_CODES.missingCapability, taskRequiredMessage(name), REQUIRED_TASKS_CAPABILITY);
      return sync();
    }
    return tool.kind === 'workflow' ? this.callWorkflow(name, tool, raw, context, sync) : this.callPlain(name, tool, raw, context);
  }

  /** The extension's methods, as the line serves them. */
  readonly methods: TaskMethods<Context> = {
    'tasks/get': (params, context) => this.get(params, context),
    'tasks/update': (params, context) => this.update(params, context),
    'tasks/cancel': (params, context) => this.cancel(params, context),
  };

  private serve(name: string, tool: TaskTool<Context>): void {
    if (!this.attached) {
      this.support.attach(this.server, this.methods);
      this.attached = true;
    }
    this.tools.set(name, tool);
    this.dispatch.serve(name, this, this.log);
  }

  private declares(context: Context): boolean {
    return this.support.clientExtensions(this.server, context)?.[TASKS_EXTENSION] !== undefined;
  }

  private async callWorkflow(name: string, tool: WorkflowTaskTool<Context>, raw: unknown, context: Context, sync: () => unknown) {
    const parsed = parsePromptArguments(this.line as AdapterLine<unknown, unknown>, 'tool', name, tool.inputSchema, raw, true);
    const args = ((parsed instanceof Promise ? await parsed : parsed) ?? {}) as Record<string, unknown>;
    const requestState = this.line.rounds?.requestState(context);
    // The first questions go by MRTR in the request, as for a plain call; the task starts once they are answered.
    if (requestState === undefined && tool.plan.groups[0]?.some((step) => step.asks.length > 0)) return sync();
    if (requestState !== undefined) {
      try {
        stateSealer(this.options.pause).openState(requestState, { prompt: name, face: 'tool', arguments: args });
      } catch (error) {
        if (error instanceof SealedStateError) throw this.line.invalidParams(`Tool ${name}: ${error.message}`);
        throw error;
      }
    }
    const responses = this.support.inputResponses(context);
    return this.createTask(name, context, {
      arguments: args,
      capabilities: this.support.clientCapabilities(this.server, context),
      ...(requestState === undefined ? {} : { requestState }),
      ...(responses === undefined ? {} : { responses }),
    });
  }

  private async callPlain(name: string, tool: PlainTaskTool, raw: unknown, context: Context) {
    const given = raw ?? {};
    if (typeof given !== 'object' || Array.isArray(given)) throw this.line.invalidParams(`Tool ${name}: arguments must be an object.`);
    const validated = await validateToolInput(
      this.line as AdapterLine<unknown, unknown>,
      tool.handle,
      name,
      given as Record<string, unknown>,
    );
    if (!validated.ok) throw this.line.invalidParams(`Tool ${name}: ${validated.message}`);
    const controller = new AbortController();
    const running = Promise.resolve().then(() =>
      invokeTool(tool.handle, name, validated.args, this.support.roundContext(context, controller.signal)),
    );
    const settled = await Promise.race([running.then(settledValue, settledError), nextTurn()]);
    if (settled) {
      // Done before the event loop turned: the result (or the MRTR round) in the request, no task.
      if ('value' in settled) return settled.value;
      if (this.support.errorCode(settled.error) !== undefined) throw settled.error;
      return { content: [{ type: 'text', text: messageOf(settled.error) }], isError: true };
    }
    try {
      return await this.createTask(
        name,
        context,
        { arguments: validated.args as Record<string, unknown>, capabilities: undefined },
        (taskId) => this.dispatch.adopt(taskId, running, controller),
      );
    } catch (error) {
      // No task (the store is full, say): the handler already running is stopped.
      controller.abort();
      throw error;
    }
  }

  private async createTask(name: string, context: Context, call: TaskCall, adopt?: (ref: string) => void): Promise<unknown> {
    const taskId = newTaskId();
    // The store knows the task by its ref (an HMAC of the id): Redis never holds an id that gives access to the task.
    const [ref] = this.refs(taskId);
    const { store } = this;
    const values = this.values(ref);
    // A store that could not start (Redis down) makes no task: the caller gets why, and the next call tries again.
    await this.dispatch.ready();
    let record: TaskRecord;
    try {
      const principal = this.principals(context)?.[0];
      record = await store.create({
        taskId: ref,
        tool: name,
        principal,
        client: principal ?? this.clientOf(context),
        createdAt: Date.now(),
        ttlMs: store.ttlMs,
        pollIntervalMs: store.pollIntervalMs,
        call: values.seal(call),
      });
    } catch (error) {
      if (error instanceof TaskLimitError) throw this.support.error(TASK_ERROR_CODES.internalError, `Tool ${name}: ${error.message}`);
      throw error;
    }
    this.log?.(`mcpflow task ${name} created: ${shortId(ref)}`);
    this.dispatch.remember(ref, context, this);
    adopt?.(ref);
    await store.schedule(ref);
    return createTaskResult({ ...record, taskId });
  }

  /** Runs one round of `record` (the dispatcher calls it, wherever the store runs rounds) and records how it ended: whether it did. */
  runRound(record: TaskRecord, signal: AbortSignal, base: unknown): Promise<boolean> {
    return this.rounds.run(record, signal, base as Context | undefined);
  }

  private async get(params: Readonly<Record<string, unknown>>, context: Context): Promise<unknown> {
    const found = await this.find('tasks/get', params, context);
    const values = this.values(found.taskId);
    // The client's own id, where the store holds the ref.
    const record = { ...found, taskId: params.taskId as string };
    if (record.status === 'input_required') return detailedTask(record, { inputRequests: this.openQuestions(found, values) });
    if (record.status === 'completed' || record.status === 'failed') {
      const error = { code: TASK_ERROR_CODES.internalError, message: record.statusMessage ?? 'the task failed' };
      return detailedTask(
        record,
        record.result === undefined
          ? { error }
          : ((await values.openEnd(record.result, async () => (await this.store.get(found.taskId))?.call)) as TaskDetails),
      );
    }
    return detailedTask(record, {});
  }

  /** The questions of a task still waiting for an answer. */
  private openQuestions(record: TaskView, values: TaskValues): Record<string, unknown> {
    const asked = values.openOptional<Record<string, unknown>>(record.inputRequests) ?? {};
    const answered = values.openOptional<Record<string, unknown>>(record.answers) ?? {};
    return Object.fromEntries(Object.entries(asked).filter(([key]) => !Object.hasOwn(answered, key)));
  }

  private async update(params: Readonly<Record<string, unknown>>, context: Context): Promise<unknown> {
    this.checkDeclared('tasks/update', context);
    // What the line could not lift as answers (not an object, a __proto__ key) stays in the params, as sent.
    const responses: unknown = params.inputResponses ?? this.support.inputResponses(context);
    const problem = inputResponsesProblem(responses);
    if (problem) throw this.support.error(TASK_ERROR_CODES.invalidParams, problem);
    let record = await this.find('tasks/update', params, context);
    for (let attempt = 0; attempt < UPDATE_ATTEMPTS; attempt++) {
      if (record.status !== 'input_required') {
        const why = isTerminalTaskStatus(record.status) ? `is ${record.status}` : 'is working and asks nothing now';
        throw this.support.error(
          TASK_ERROR_CODES.invalidParams,
          `tasks/update: task '${String(params.taskId)}' ${why}; it takes no answers.`,
        );
      }
      const values = this.values(record.taskId);
      const asked = values.openOptional<Record<string, unknown>>(record.inputRequests) ?? {};
      const answered = values.openOptional<Record<string, unknown>>(record.answers) ?? {};
      const given = Object.entries(responses as Record<string, unknown>);
      const ignored = given.filter(([key]) => !Object.hasOwn(asked, key)).map(([key]) => key);
      const answers = { ...answered };
      for (const [key, answer] of given) {
        if (!Object.hasOwn(asked, key)) continue;
        const problem = answerProblem(asked[key], answer);
        if (problem)
          throw this.support.error(
            TASK_ERROR_CODES.invalidParams,
            `tasks/update: the answer to '${key}' does not fit its question: ${problem}. The question stays open; answer it again.`,
          );
        answers[key] = answer;
      }
      const complete = Object.keys(asked).every((key) => Object.hasOwn(answers, key));
      const changed = await this.store.update(
        record.taskId,
        record.version,
        complete ? { status: 'working', answers: values.seal(answers), inputRequests: null } : { answers: values.seal(answers) },
      );
      if (changed.ok) {
        if (complete) {
          this.dispatch.remember(record.taskId, context, this);
          await this.store.schedule(record.taskId);
        }
        return ignored.length === 0 ? taskAck() : { ...taskAck(), _meta: { 'mcpflow/task': { ignoredInputResponses: ignored } } };
      }
      if (!changed.task) break;
      record = changed.task;
    }
    throw this.support.error(TASK_ERROR_CODES.invalidParams, unknownTaskMessage('tasks/update', String(params.taskId)));
  }

  private async cancel(params: Readonly<Record<string, unknown>>, context: Context): Promise<unknown> {
    const record = await this.find('tasks/cancel', params, context);
    const wasLive = !isTerminalTaskStatus(record.status);
    await this.store.cancel(record.taskId);
    if (wasLive) {
      this.dispatch.forget(record.taskId);
      this.log?.(`mcpflow task ${record.tool} cancelled: ${shortId(record.taskId)}`);
    }
    return taskAck();
  }

  /** The task a method names, once the client may see it: `-32021` without the extension, `-32602` for an unknown or foreign id. */
  private checkDeclared(method: string, context: Context): void {
    if (!this.declares(context))
      throw this.support.error(TASK_ERROR_CODES.missingCapability, undeclaredMessage(method), REQUIRED_TASKS_CAPABILITY);
  }

  private async find(method: string, params: Readonly<Record<string, unknown>>, context: Context): Promise<TaskView> {
    this.checkDeclared(method, context);
    const taskId = taskIdOf(method, params);
    if (typeof taskId !== 'string') throw this.support.error(TASK_ERROR_CODES.invalidParams, taskId.problem);
    let record: TaskView | undefined;
    // The ref under each key, the current one first: a task made before the keys rotated is still found.
    for (const ref of this.refs(taskId)) if ((record = await (this.store.view?.(ref) ?? this.store.get(ref)))) break;
    const principals = this.principals(context);
    const mine = record?.principal === undefined ? principals === undefined : principals?.includes(record.principal) === true;
    if (!record || !mine) throw this.support.error(TASK_ERROR_CODES.invalidParams, unknownTaskMessage(method, taskId));
    return record;
  }

  /** Who a request without a principal counts as under `maxTasksPerClient`: an HMAC of its session, else of its address. */
  private clientOf(context: Context): string | undefined {
    const client = this.line.request.client(context);
    return client === undefined ? undefined : keyedDigests(this.options.pause, 'client', client)[0];
  }

  /** What the store knows a task by: an HMAC of its id under each of the server's keys, the current key's first. */
  private refs(taskId: string): string[] {
    return keyedDigests(this.options.pause, 'task', taskId);
  }

  /**
   * Who a request's principal is, as a task keeps it (DESIGN §2.13): an HMAC under each of the
   * server's keys (never the token, never the principal in clear), the current key's first; `undefined` without one.
   */
  private principals(context: Context): string[] | undefined {
    const principal = requestPrincipal(this.support.authInfo(context), this.options.principal);
    return (
      principal && keyedDigests(this.options.pause, 'principal', JSON.stringify([principal.clientId ?? null, principal.subject ?? null]))
    );
  }

  private values(taskId: string): TaskValues {
    return new TaskValues(taskSealer(this.options.pause, this.store.ttlMs), taskId);
  }
}

/** The server's store: the option, checked, or the process's memory store. */
function storeOf(given: TaskStore | undefined): TaskStore {
  if (given === undefined) return (processStore ??= memoryTasks());
  const methods = ['start', 'create', 'get', 'update', 'cancel', 'schedule', 'expired', 'remove', 'close'] as const;
  if (typeof given !== 'object' || given === null || methods.some((method) => typeof (given as never)[method] !== 'function'))
    throw new TypeError('mcpflow tasks: expected a task store — memoryTasks() or bullmqTasks(…) — for the tasks option.');
  return given;
}

function settledValue(value: unknown): { value: unknown } {
  return { value };
}

function settledError(error: unknown): { error: unknown } {
  return { error };
}

/** Resolves once the event loop has turned (after I/O callbacks): what a handler that waits on nothing has settled by. */
function nextTurn(): Promise<undefined> {
  return new Promise((resolve) => setImmediate(resolve, undefined));
}
