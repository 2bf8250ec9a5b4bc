import { callTool, TaskCancelledError, TaskFailedError, type InputRequests, type TaskStatus } from '@mcpflow/client';
import type { Client } from '@modelcontextprotocol/client';
import type { ElicitParams } from './server-connection';
import type { StudioRun } from './studio-run';
import { TIMING_META } from './timing-meta';

/** Why a run's task stopped when the page cancelled it. */
const CANCELLED = 'The task was cancelled.';

/**
 * Runs a workflow tool as an MCP task (DESIGN §2.13) through `@mcpflow/client`'s `callTool`: the
 * task's status and status message reach the page (a `task` event), each `input_required` question
 * is put to the page (a `question` event) and answered through the task, and `cancel()` aborts the
 * call, which cancels the task (`tasks/cancel`).
 */
export class TaskDriver {
  private readonly stop = new AbortController();

  constructor(
    private readonly client: () => Client,
    private readonly run: StudioRun,
    /** Finishes the run from a `tools/call` result (the task's, or a plain one when the server ran no task). */
    private readonly finish: (result: Record<string, unknown>) => void,
  ) {}

  /** Starts the task and follows it to its end; `created` hears its id first. */
  async start(tool: string, args: Record<string, unknown>, created: (taskId: string) => void): Promise<void> {
    const onStatus = (task: TaskStatus) => {
      if (this.run.taskId === undefined) {
        this.run.taskId = task.taskId;
        created(task.taskId);
      }
      this.status(task.status, task.statusMessage);
    };
    try {
      const options = { onStatus, onInput: (requests: InputRequests) => this.ask(requests), signal: this.stop.signal, meta: TIMING_META };
      this.finish(await callTool(this.client(), { name: tool, arguments: args }, options));
    } catch (error) {
      if (this.stop.signal.aborted || error instanceof TaskCancelledError) {
        this.status('cancelled', this.run.statusMessage);
        return this.run.finish('cancelled', [], undefined, error instanceof TaskCancelledError ? error.message : CANCELLED);
      }
      if (error instanceof TaskFailedError) return this.run.finish('failed', [], undefined, error.error?.message ?? error.message);
      throw error;
    }
  }

  /** Cancels the task: the call sends `tasks/cancel` and the run ends `cancelled`. */
  cancel(): void {
    this.stop.abort(new Error(CANCELLED));
  }

  private status(status: string, statusMessage: string | undefined): void {
    this.run.taskStatus = status;
    this.run.statusMessage = statusMessage;
    this.run.taskStep(statusMessage);
    this.run.emit('task', { taskId: this.run.taskId, status });
  }

  /** Puts a round's questions to the page; the answers go back through the task together. */
  private async ask(requests: InputRequests): Promise<Record<string, unknown>> {
    const forms = Object.entries(requests).filter(([, request]) => request.method === 'elicitation/create');
    const answers = await Promise.all(forms.map(([, request]) => this.run.ask(request.params as ElicitParams)));
    return Object.fromEntries(forms.map(([key], index) => [key, answers[index]]));
  }
}
