import { randomUUID } from 'node:crypto';
import type { StepInfo } from '@mcpflow/core/model';
import { ApiError, type Face, type RunEvent, type RunMessage, type RunStatus, type RunView, type TimelineRow } from './api-types';
import { answerProblem, type RequestedSchema } from './answer-check';
import { LiveSteps } from './live-steps';
import { stepIO } from './step-io';
import type { ElicitAnswer, ElicitParams } from './server-connection';

/** An open question of a run: what the page shows, and how the server's request is answered. */
interface OpenQuestion {
  readonly schema: RequestedSchema;
  readonly answer: (answer: ElicitAnswer) => void;
}

type Listener = (event: RunEvent) => void;

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
  private readonly live: LiveSteps;
  readonly view: RunView;
  taskId?: string;
  taskStatus?: string;
  statusMessage?: string;

  constructor(
    workflow: string,
    face: Face,
    private readonly steps: readonly StepInfo[],
  ) {
    this.live = new LiveSteps(steps, (state) => {
      this.view.steps = this.live.all;
      this.emit('step', state);
    });
    this.view = { runId: this.runId, workflow, face, status: 'running', messages: [], timeline: [], steps: this.live.all, io: [] };
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

  /** A progress notification of the run: live to the page, each step's status (a `step` event), and its times for the timeline. */
  progress(update: { progress: number; total?: number; message?: string }): void {
    const at = Date.now() - this.started;
    this.emit('progress', { ...update, at });
    this.live.progress(update.message, at);
  }

  /** A task's status message (`step 2 of 4: build`): that step runs. */
  taskStep(statusMessage: string | undefined): void {
    const step = statusMessage === undefined ? undefined : /^step (\d+ of \d+: .*?)(?:, item \d+ of \d+ done)?$/s.exec(statusMessage);
    if (step) this.live.progress(`Started step ${step[1]}`, Date.now() - this.started);
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
          if (this.questions.size === 0) this.live.asking(false);
          resolve(answer);
        },
      });
      this.emit('question', { questionId, message: params.message, requestedSchema });
      const key = (params._meta?.['mcpflow/question'] as { key?: unknown } | undefined)?.key;
      this.live.asking(true, typeof key === 'string' ? key : undefined);
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
    const meta = execution as { status?: RunStatus; reason?: string; stoppedAt?: string; steps?: ExecutedStep[] } | undefined;
    this.view.status = meta?.status ?? status;
    const why = meta?.reason ?? reason;
    if (why !== undefined) this.view.reason = why;
    this.view.messages = messages;
    this.view.execution = execution;
    const executed = (Array.isArray(meta?.steps) ? meta.steps.slice(0, MAX_STEP_ROWS) : []).filter(
      (step) => typeof step === 'object' && step !== null && typeof step.name === 'string' && typeof step.status === 'string',
    );
    this.live.finish(executed);
    this.view.steps = this.live.all;
    this.view.timeline = this.timeline(executed);
    const forEach = new Set(this.steps.filter((step) => step.forEach).map((step) => step.name));
    this.view.io = stepIO(
      messages.map((message) => message.content),
      executed.map((step) =>
        step.name === meta?.stoppedAt && step.reason === undefined && typeof meta.reason === 'string'
          ? { ...step, reason: meta.reason }
          : step,
      ),
      forEach,
    );
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
    const rows = executed.flatMap((step) => {
      const times = this.live.times.get(step.name);
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
      const items = Array.from({ length: Math.min(count, MAX_ITERATION_ROWS) }, (_, index) => {
        const iteration: TimelineRow = { step: step.name, status: failures.get(index) ?? 'completed', iteration: index };
        const ms = step.iterationDurationsMs?.[index];
        if (typeof ms === 'number') iteration.durationMs = ms;
        return iteration;
      });
      return [row, ...items];
    });
    laidOut(rows);
    return rows;
  }
}

/**
 * Gives each row its start on the timeline's axis, from the durations: a step starts when the steps
 * before it ended, steps of one parallel group together (the engine starts them at once), a
 * `forEach` step's items one after another from the step's start. (Progress arrives on the
 * studio's clock, the durations are the server's: mixing them would draw overlaps that never were.)
 */
function laidOut(rows: TimelineRow[]): void {
  let cursor = 0;
  let groupStart: { group: string; at: number } | undefined;
  let itemCursor = 0;
  for (const row of rows) {
    if (row.iteration !== undefined) {
      row.startMs = itemCursor;
      itemCursor = row.startMs + (row.durationMs ?? 0);
      cursor = Math.max(cursor, itemCursor);
      continue;
    }
    if (row.group !== undefined && groupStart?.group === row.group) row.startMs = groupStart.at;
    else {
      row.startMs = cursor;
      groupStart = row.group === undefined ? undefined : { group: row.group, at: row.startMs };
    }
    itemCursor = row.startMs;
    cursor = Math.max(cursor, row.startMs + (row.durationMs ?? 0));
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
  /** Why the step did not complete (an optional step's failure, a false `when`). */
  readonly reason?: unknown;
  readonly iterations?: { count?: number; failures?: { index: number; status: string }[] };
  /** How long the step ran, when the server timed it (`_meta["mcpflow/timing"]` asked). */
  readonly durationMs?: unknown;
  /** A `forEach` step's iterations' durations, by element index. */
  readonly iterationDurationsMs?: readonly unknown[];
}
