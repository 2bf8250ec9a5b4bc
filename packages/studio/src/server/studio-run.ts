import { randomUUID } from 'node:crypto';
import type { StepInfo } from '@mcpflow/core/model';
import { ApiError, type Face, type RunEvent, type RunMessage, type RunStatus, type RunView, type TimelineRow } from './api-types';
import { answerProblem, type RequestedSchema } from './answer-check';
import type { ElicitAnswer, ElicitParams } from './server-connection';

/** An open question of a run: what the page shows, and how the server's request is answered. */
interface OpenQuestion {
  readonly schema: RequestedSchema;
  readonly answer: (answer: ElicitAnswer) => void;
}

type Listener = (event: RunEvent) => void;

const STEP_PROGRESS = /^(Started|Finished) step \d+ of \d+: (.*)$/;

/**
 * One run started from the studio: its events (replayed to a late subscriber, then live), its open
 * questions, and its result as the page reads it (status, reason, conversation, timeline).
 */
export class StudioRun {
  readonly runId = randomUUID();
  private readonly started = Date.now();
  private readonly events: RunEvent[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly questions = new Map<string, OpenQuestion>();
  private readonly stepTimes = new Map<string, { start?: number; end?: number }>();
  readonly view: RunView;
  taskId?: string;
  taskStatus?: string;
  statusMessage?: string;

  constructor(
    workflow: string,
    face: Face,
    private readonly steps: readonly StepInfo[],
  ) {
    this.view = { runId: this.runId, workflow, face, status: 'running', messages: [], timeline: [] };
  }

  get done(): boolean {
    return this.view.status !== 'running';
  }

  /** Subscribes to the run's events: what it already emitted first, then each new one; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    for (const event of this.events) listener(event);
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(type: RunEvent['type'], data: unknown): void {
    const event = { type, data };
    this.events.push(event);
    for (const listener of this.listeners) listener(event);
  }

  /** A progress notification of the run: live to the page, and each step's start and end for the timeline. */
  progress(update: { progress: number; total?: number; message?: string }): void {
    const at = Date.now() - this.started;
    const step = update.message === undefined ? undefined : STEP_PROGRESS.exec(update.message);
    if (step) {
      const times = this.stepTimes.get(step[2]) ?? {};
      if (step[1] === 'Started') times.start ??= at;
      else times.end = at;
      this.stepTimes.set(step[2], times);
    }
    this.emit('progress', { ...update, at });
  }

  /** A question of the server: a `question` event; resolves with the page's answer. */
  ask(params: ElicitParams): Promise<ElicitAnswer> {
    const questionId = randomUUID();
    const requestedSchema = params.requestedSchema ?? { type: 'object', properties: {} };
    return new Promise<ElicitAnswer>((resolve) => {
      this.questions.set(questionId, {
        schema: requestedSchema as RequestedSchema,
        answer: (answer) => {
          this.questions.delete(questionId);
          this.emit('question-closed', { questionId });
          resolve(answer);
        },
      });
      this.emit('question', { questionId, message: params.message, requestedSchema });
    });
  }

  /** The page's answer to a question: checked against its schema (400 naming the field, the question stays open). */
  answer(questionId: unknown, action: unknown, content: unknown): void {
    const question = typeof questionId === 'string' ? this.questions.get(questionId) : undefined;
    if (!question) throw new ApiError(404, `Run ${this.runId} has no open question ${String(questionId)}.`, 'questionId');
    if (action === 'decline' || action === 'cancel') return question.answer({ action });
    if (action !== 'accept') throw new ApiError(400, `action must be accept, decline or cancel, not ${JSON.stringify(action)}.`, 'action');
    const problem = answerProblem(question.schema, content);
    if (problem) throw new ApiError(400, problem.error, problem.field);
    question.answer({ action: 'accept', content: content as Record<string, unknown> });
  }

  /** Ends the run: its result, with the timeline read from `_meta["mcpflow/execution"]`. */
  finish(status: RunStatus, messages: RunMessage[], execution: unknown, reason?: string): void {
    for (const question of this.questions.values()) question.answer({ action: 'cancel' });
    const meta = execution as { status?: RunStatus; reason?: string; steps?: ExecutedStep[] } | undefined;
    this.view.status = meta?.status ?? status;
    const why = meta?.reason ?? reason;
    if (why !== undefined) this.view.reason = why;
    this.view.messages = messages;
    this.view.execution = execution;
    this.view.timeline = this.timeline(meta?.steps ?? []);
    this.emit('result', this.view);
  }

  /** Ends the run with an error the client saw (a protocol error, a lost connection). */
  fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.emit('error', { error: message });
    this.finish('failed', [], undefined, message);
  }

  private timeline(executed: readonly ExecutedStep[]): TimelineRow[] {
    const groups = new Map(this.steps.map((step) => [step.name, step.group]));
    // What the server says is capped before anything is built from it: a count of 5,000,000 is 200 rows and a note.
    return (Array.isArray(executed) ? (executed as readonly ExecutedStep[]).slice(0, MAX_STEP_ROWS) : []).flatMap((step) => {
      const times = this.stepTimes.get(step.name);
      const row: TimelineRow = { step: step.name, status: step.status };
      // The server's own timing (asked for with `_meta["mcpflow/timing"]`) first; else what progress told.
      if (typeof step.durationMs === 'number') row.durationMs = step.durationMs;
      else if (times?.start !== undefined && times.end !== undefined) row.durationMs = times.end - times.start;
      const group = groups.get(step.name);
      if (group !== undefined) row.group = group;
      const count = step.iterations?.count;
      if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return [row];
      if (count > MAX_ITERATION_ROWS) row.iterationsNotShown = count - MAX_ITERATION_ROWS;
      // An iteration's own status is told only when it did not complete (`failures`).
      const failures = new Map((step.iterations?.failures ?? []).map((failure) => [failure.index, failure.status]));
      const rows = Array.from({ length: Math.min(count, MAX_ITERATION_ROWS) }, (_, index) => {
        const iteration: TimelineRow = { step: step.name, status: failures.get(index) ?? 'completed', iteration: index };
        const ms = step.iterationDurationsMs?.[index];
        if (typeof ms === 'number') iteration.durationMs = ms;
        return iteration;
      });
      return [row, ...rows];
    });
  }
}

/** At most this many rows of a `forEach` step's iterations; the step's row tells how many more there were. */
const MAX_ITERATION_ROWS = 200;
/** At most this many steps of a result's `_meta["mcpflow/execution"].steps` are read. */
const MAX_STEP_ROWS = 1000;

/** A step of `_meta["mcpflow/execution"].steps`, as the studio reads it. */
interface ExecutedStep {
  readonly name: string;
  readonly status: string;
  readonly iterations?: { count?: number; failures?: { index: number; status: string }[] };
  /** How long the step ran, when the server timed it (`_meta["mcpflow/timing"]` asked). */
  readonly durationMs?: unknown;
  /** A `forEach` step's iterations' durations, by element index. */
  readonly iterationDurationsMs?: readonly unknown[];
}
