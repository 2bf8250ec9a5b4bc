import type { RoundsAskChannel, StateSealer, WorkflowPlan } from '../../engine';
import type { TaskSupport } from '../../model';
import type { ToolHandle } from '../registry/handles';
import type { StepStatus } from '../run/running-step';
import type { DurableRound, TaskRoundOutcome } from '../run/workflow-runner';
import type { TaskError } from './tasks-wire';

/** A workflow tool that may run as a task: its plan, and how one round of it runs. */
export interface WorkflowTaskTool<Context> {
  readonly kind: 'workflow';
  readonly support: TaskSupport;
  readonly plan: WorkflowPlan;
  readonly inputSchema: object;
  round(
    args: Record<string, unknown>,
    context: Context,
    asking: RoundsAskChannel,
    state: string | undefined,
    sealer: StateSealer,
    durable?: DurableRound,
    /** Hears, value-free, the step that runs (`step 2 of 4: build`, and the step), for the task's `statusMessage` and `_meta`. */
    status?: (status: StepStatus) => Promise<void>,
  ): Promise<TaskRoundOutcome>;
}

/** A plain tool (`defineTool(…, { task })`) that may run as a task. */
export interface PlainTaskTool {
  readonly kind: 'plain';
  readonly support: TaskSupport;
  readonly handle: ToolHandle;
}

export type TaskTool<Context> = WorkflowTaskTool<Context> | PlainTaskTool;

/** What a task keeps of the call that made it (sealed): the arguments, and what the client can be asked. */
export interface TaskCall {
  readonly arguments: Record<string, unknown>;
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /** The MRTR round's sealed state, when one came before the task (a workflow). */
  readonly requestState?: string;
  /** The answers that came with it. */
  readonly responses?: Readonly<Record<string, unknown>>;
}

/** What a round came to, as the task records it. */
export type RoundEnd =
  | { readonly kind: 'result'; readonly result: unknown }
  | { readonly kind: 'input-required'; readonly inputRequests: Readonly<Record<string, unknown>>; readonly state: string }
  | { readonly kind: 'failed'; readonly error: TaskError };

/** The message of what a handler or a round threw. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Enough of a task id for a log line to tell tasks apart. */
export function shortId(taskId: string): string {
  return taskId.slice(0, 8);
}
