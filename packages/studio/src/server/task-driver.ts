import type { Client } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { TASK_CREATED, TASKS_EXTENSION } from './task-results';
import type { StudioRun } from './studio-run';
import { TIMING_META } from './timing-meta';

/** A result of a task method, as the studio reads it. */
const TaskAnswer = z.looseObject({});
type TaskAnswer = Record<string, unknown> & {
  taskId?: string;
  status?: string;
  statusMessage?: string;
  pollIntervalMs?: number;
  inputRequests?: Record<string, { method?: string; params?: { message: string; requestedSchema?: object } }>;
  result?: Record<string, unknown>;
  error?: { message?: string };
  _meta?: Record<string, unknown>;
};

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const LONGEST_POLL_MS = 1000;

/**
 * Runs a workflow tool as an MCP task (DESIGN §2.13; protocol 2026-07-28): `tools/call` declaring
 * the tasks extension for this request only, then `tasks/get` at the interval the server asks,
 * each `input_required` question put to the page (a `question` event) and its answer sent with
 * `tasks/update`, until the task ends. `cancel()` sends `tasks/cancel`.
 */
export class TaskDriver {
  constructor(
    private readonly client: () => Client,
    private readonly run: StudioRun,
    /** Finishes the run from a `tools/call` result (the task's, or a plain one when the server ran no task). */
    private readonly finish: (result: Record<string, unknown>) => void,
  ) {}

  /** Starts the task and follows it to its end; `created` hears its id first. */
  async start(tool: string, args: Record<string, unknown>, created: (taskId: string) => void): Promise<void> {
    const first = await this.send('tools/call', { name: tool, arguments: args });
    if (first._meta?.[TASK_CREATED] !== true || typeof first.taskId !== 'string') return this.finish(first);
    this.run.taskId = first.taskId;
    created(first.taskId);
    const asked = new Set<string>();
    let task = first;
    for (;;) {
      this.status(task);
      if (task.status && TERMINAL.has(task.status)) return this.end(task);
      if (task.status === 'input_required')
        for (const [key, request] of Object.entries(task.inputRequests ?? {})) this.ask(key, request, asked);
      await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollIntervalMs ?? LONGEST_POLL_MS, LONGEST_POLL_MS)));
      task = await this.send('tasks/get', { taskId: first.taskId });
    }
  }

  cancel(): Promise<unknown> {
    return this.send('tasks/cancel', { taskId: this.run.taskId });
  }

  private status(task: TaskAnswer): void {
    if (task.status === this.run.taskStatus && task.statusMessage === this.run.statusMessage) return;
    this.run.taskStatus = task.status;
    this.run.statusMessage = task.statusMessage;
    this.run.emit('task', { taskId: this.run.taskId, status: task.status });
  }

  /** Puts a task's question to the page once; its answer goes back with `tasks/update`. */
  private ask(key: string, request: NonNullable<TaskAnswer['inputRequests']>[string], asked: Set<string>): void {
    if (asked.has(key) || request.method !== 'elicitation/create' || !request.params) return;
    asked.add(key);
    void this.run.ask(request.params).then((answer) =>
      this.send('tasks/update', { taskId: this.run.taskId, inputResponses: { [key]: answer } }).catch((error: unknown) => {
        asked.delete(key);
        this.run.emit('error', { error: error instanceof Error ? error.message : String(error) });
      }),
    );
  }

  private end(task: TaskAnswer): void {
    if (task.status === 'completed') return this.finish(task.result ?? {});
    if (task.status === 'cancelled') return this.run.finish('cancelled', [], undefined, task.statusMessage ?? 'The task was cancelled.');
    this.run.finish('failed', [], undefined, task.error?.message ?? task.statusMessage ?? 'The task failed.');
  }

  private async send(method: string, params: Record<string, unknown>): Promise<TaskAnswer> {
    const capabilities = { elicitation: { form: {} }, extensions: { [TASKS_EXTENSION]: {} } };
    const _meta = { 'io.modelcontextprotocol/clientCapabilities': capabilities, ...TIMING_META };
    return (await this.client().request({ method, params: { ...params, _meta } } as never, TaskAnswer)) as TaskAnswer;
  }
}
