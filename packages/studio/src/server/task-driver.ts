import { callTool, TaskCancelledError, TaskFailedError, type InputRequests, type TaskStatus } from '@mcpflow/client';
import type { Client } from '@modelcontextprotocol/client';
import type { TaskEvent, TaskStepView } from './api-types';
import { keyed, type ElicitParams } from './server-connection';
import type { StudioRun } from './studio-run';
import { TIMING_META } from './timing-meta';

/** Why a run's task stopped when the page cancelled it. */
const CANCELLED = 'The task was cancelled.';

/**
 * Runs a workflow tool as an MCP task (DESIGN §2.13) through `@mcpflow/client`'s `callTool`: the
 * task's status and status message reach the page (a `task` event), each `input_required` question
 * is put to the page (a `question` event) and answered through the task, and the run's `stop`
 * aborts the call, which cancels the task (`tasks/cancel`).
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
    const onStatus = (task: TaskStatus) => {
      if (this.run.taskId === undefined) {
        this.run.taskId = task.taskId;
        created(task.taskId);
      }
      this.run.versionFrom(task._meta?.['mcpflow/task']);
      this.status(task.status, task.statusMessage, runningStep(task));
    };
    try {
      const options = {
        onStatus,
        onInput: (requests: InputRequests) => this.ask(requests),
        signal: this.run.stop.signal,
        meta: TIMING_META,
      };
      this.finish(await callTool(this.client(), { name: tool, arguments: args }, options));
    } catch (error) {
      if (this.run.stop.signal.aborted || error instanceof TaskCancelledError) {
        this.status('cancelled', this.run.statusMessage, undefined);
        return this.run.finish('cancelled', [], undefined, error instanceof TaskCancelledError ? error.message : CANCELLED);
      }
      if (error instanceof TaskFailedError) return this.run.finish('failed', [], undefined, error.error?.message ?? error.message);
      throw error;
    }
  }

  private status(status: string, statusMessage: string | undefined, step: TaskStepView | undefined): void {
    this.run.taskStatus = status;
    this.run.statusMessage = statusMessage;
    this.run.taskStep(step);
    const { taskId } = this.run;
    const { version } = this.run.view;
    const event: TaskEvent = {
      ...(taskId === undefined ? {} : { taskId }),
      status,
      ...(step ? { step } : {}),
      ...(version === undefined ? {} : { version }),
    };
    this.run.emit('task', event);
  }

  /** Puts a round's questions to the page; the answers go back through the task together. */
  private async ask(requests: InputRequests): Promise<Record<string, unknown>> {
    const forms = Object.entries(requests).filter(([, request]) => request.method === 'elicitation/create');
    const answers = await Promise.all(forms.map(([key, request]) => this.run.ask(keyed(request.params as ElicitParams, key))));
    return Object.fromEntries(forms.map(([key], index) => [key, answers[index]]));
  }
}

/**
 * The step a live task runs or waits at, from its `_meta["mcpflow/task"]` (an mcpflow server), as the
 * page gets it: only a well-formed one (a name of at most 200 characters, whole numbers), so a
 * server's odd `_meta` never reaches the page.
 */
function runningStep(task: TaskStatus): TaskStepView | undefined {
  const step = task._meta?.['mcpflow/task'] as Partial<Record<string, unknown>> | undefined;
  if (typeof step !== 'object' || step === null) return undefined;
  const { step: name, stepIndex, steps } = step;
  if (typeof name !== 'string' || name.length > 200 || !Number.isSafeInteger(stepIndex) || !Number.isSafeInteger(steps)) return undefined;
  return { step: name, stepIndex: stepIndex as number, steps: steps as number };
}
