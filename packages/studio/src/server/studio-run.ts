import { randomUUID } from 'node:crypto';
import type { StepInfo } from '@mcpflow/core/model';
import {
  ApiError,
  type Face,
  type RunEvent,
  type RunMessage,
  type RunStatus,
  type RunSummary,
  type RunView,
  type TaskStepView,
  type TimelineRow,
} from './api-types';
import { answerProblem, type RequestedSchema } from './answer-check';
import { capped, cappedName } from './capped';
import { jsonWithHeapBytes } from './kept-string';
import { LiveSteps } from './live-steps';
import { stepIO } from './step-io';
import type { ElicitAnswer, ElicitParams } from './server-connection';

/** An open question of a run: what the page shows, and how the server's request is answered. */
interface OpenQuestion {
  readonly schema: RequestedSchema;
  readonly answer: (answer: ElicitAnswer) => void;
}

/** Hears each event of a run: the event, its number in the run, and its data as JSON. */
type Listener = (event: RunEvent, seq: number, json: string) => void;

/** A run as `--history` keeps it: its summary and its events (the view is the last `result`'s). */
export interface RunRecord {
  readonly summary: RunSummary;
  readonly events: RunEvent[];
}

/** What a sensitive argument's value reads as in what the studio keeps and shows. */
const REDACTED = '[redacted]';

/** The forms a sensitive value takes in a message: as typed, and JSON-escaped (longest first). */
function secretForms(value: unknown): string[] {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const escaped = JSON.stringify(text).slice(1, -1);
  return [...new Set([text, escaped])].sort((a, b) => b.length - a.length);
}

/**
 * What a finished run's own objects hold on the heap beside the JSON of its events and messages
 * (its view and step states as objects, events array, abort controller, maps…), rounded up: 200
 * finished one-step runs of a 10-byte result grew the studio's heap 2.7 MiB (`--expose-gc`,
 * `process.memoryUsage()`), about 14 KiB a run of which about 1.2 KiB is their JSON.
 */
const RUN_OBJECT_BYTES = 16 * 1024;

/** The longest workflow version the studio keeps from a server. */
const MAX_VERSION_CHARS = 100;
/** At most this many progress events of a run are kept (a server may send millions); one note tells the rest were dropped. */
const MAX_PROGRESS_EVENTS = 500;
/** A progress message is cut to this many characters (500 of them stay small). */
const MAX_PROGRESS_CHARS = 1000;

/**
 * One run started from the studio: its events (replayed to a late subscriber, then live), its open
 * questions, and its result as the page reads it (status, reason, conversation, timeline).
 */
export class StudioRun {
  readonly runId: string = randomUUID();
  readonly started: number = Date.now();
  private ended?: number;
  private readonly events: RunEvent[] = [];
  private progressEvents = 0;
  private readonly listeners = new Set<Listener>();
  private readonly questions = new Map<string, OpenQuestion>();
  private readonly live: LiveSteps;
  /** The run's sensitive argument values, in the forms a message may carry them; never stored. */
  private readonly secrets: string[] = [];
  /**
   * What the run holds on the studio's heap, which the history's `--history-bytes` bounds: its own
   * objects (`RUN_OBJECT_BYTES`), its arguments and events as their JSON holds them (`jsonWithHeapBytes`, field by field:
   * two bytes a character past Latin-1), and its raw messages (`WireLog`).
   */
  bytes = 0;
  /** Aborts the run's request (`notifications/cancelled` for a prompt or tool run). */
  readonly stop: AbortController = new AbortController();
  readonly view: RunView;
  /** The arguments the run was started with, as the page sent them (capped). */
  readonly arguments: Record<string, unknown>;
  taskId?: string;
  taskStatus?: string;
  statusMessage?: string;

  constructor(
    workflow: string,
    face: Face,
    private readonly steps: readonly StepInfo[],
    args: Record<string, unknown> = {},
    sensitive: readonly string[] = [],
  ) {
    this.live = new LiveSteps(steps, (state) => {
      this.view.steps = this.live.all;
      this.emit('step', state);
    });
    this.view = { runId: this.runId, workflow, face, status: 'running', messages: [], timeline: [], steps: this.live.all, io: [] };
    // A sensitive argument's value is kept nowhere the studio shows or stores (the runs panel, --history, raw messages).
    const shown: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(args)) {
      const secret = sensitive.includes(name) && value !== undefined && value !== '';
      if (secret) this.secrets.push(...secretForms(value));
      Object.defineProperty(shown, name, { value: secret ? REDACTED : value, enumerable: true, writable: true, configurable: true });
    }
    this.arguments = capped(shown) as Record<string, unknown>;
    this.bytes = RUN_OBJECT_BYTES + jsonWithHeapBytes(this.arguments).bytes;
  }

  /** `text` with every sensitive argument value of the run (as typed, and JSON-escaped) replaced by `[redacted]`. */
  hide(text: string): string {
    return this.secrets.reduce((hidden, secret) => hidden.split(secret).join(REDACTED), text);
  }

  /** A run of an earlier studio, read back from `--history`: finished, its events as they were. */
  static restored(record: RunRecord): StudioRun {
    const { summary } = record;
    const run = new StudioRun(summary.workflow, summary.face, [], summary.arguments);
    Object.assign(run, { runId: summary.runId, started: summary.startedAt, ended: summary.endedAt });
    Object.assign(run.view, { runId: summary.runId });
    for (const event of record.events) {
      run.events.push(event);
      run.bytes += jsonWithHeapBytes(event.data ?? null).bytes;
      if (event.type === 'result') Object.assign(run.view, event.data);
    }
    if (summary.taskId !== undefined) run.taskId = summary.taskId;
    run.taskStatus = summary.taskStatus;
    if (run.view.status === 'running') {
      // The studio stopped before the run ended: nothing can answer or finish it now.
      run.taskStatus &&= 'failed';
      run.finish('failed', [], undefined, 'The studio stopped before this run ended.');
    }
    return run;
  }

  /** What the runs panel lists of the run. */
  summary(): RunSummary {
    return {
      runId: this.runId,
      workflow: this.view.workflow,
      face: this.view.face,
      status: this.view.status,
      startedAt: this.started,
      ...(this.ended === undefined ? {} : { endedAt: this.ended }),
      arguments: this.arguments,
      ...(this.taskId === undefined ? {} : { taskId: this.taskId }),
      ...(this.taskStatus === undefined ? {} : { taskStatus: this.taskStatus }),
      openQuestions: this.questions.size,
      ...(this.view.version === undefined ? {} : { version: this.view.version }),
    };
  }

  /**
   * The version the run started or resumed on, from what its server says (`_meta["mcpflow/run"]` of a
   * result, `_meta["mcpflow/task"]` of a task): kept when it is a short string, else ignored.
   */
  versionFrom(meta: unknown): void {
    const version = typeof meta === 'object' && meta !== null ? (meta as { version?: unknown }).version : undefined;
    if (typeof version === 'string' && version.length > 0 && version.length <= MAX_VERSION_CHARS) this.view.version = version;
  }

  /** The run as `--history` keeps it. */
  record(): RunRecord {
    return { summary: this.summary(), events: this.events };
  }

  /** What the run emitted so far (`GET /api/runs/:runId/log`): the page replays it, then follows the event stream. */
  log(): RunEvent[] {
    return this.events;
  }

  get done(): boolean {
    return this.view.status !== 'running';
  }

  /** Subscribes to the run's events: what it already emitted first, then each new one; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.events.forEach((event, seq) => listener(event, seq, JSON.stringify(event.data)));
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(type: RunEvent['type'], data: unknown): void {
    if (type === 'progress' && ++this.progressEvents > MAX_PROGRESS_EVENTS) {
      if (this.progressEvents !== MAX_PROGRESS_EVENTS + 1) return;
      data = { progress: 0, message: `(more progress not kept by the studio: at most ${MAX_PROGRESS_EVENTS} notifications a run)`, at: 0 };
    }
    const event = { type, data };
    const { json, bytes } = jsonWithHeapBytes(data);
    const seq = this.events.push(event) - 1;
    this.bytes += bytes;
    for (const listener of this.listeners) listener(event, seq, json);
  }

  /** A progress notification of the run: live to the page, each step's status (a `step` event), and its times for the timeline. */
  progress(update: { progress: number; total?: number; message?: string }): void {
    const at = Date.now() - this.started;
    const message = update.message === undefined ? {} : { message: cappedName(update.message, MAX_PROGRESS_CHARS) };
    this.emit('progress', { ...(capped(update) as object), ...message, at });
    this.live.progress(message.message, at);
  }

  /**
   * The step a task runs or waits at, as its server tells it (`tasks/get`'s `_meta["mcpflow/task"]`,
   * read by `TaskDriver`): that step runs. The status message is only shown, never parsed.
   */
  taskStep(step: TaskStepView | undefined): void {
    if (step) this.live.started(step.step, Date.now() - this.started);
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
      // The asking step is `waiting` (its `step` events) by the time the page shows the question.
      const key = (params._meta?.['mcpflow/question'] as { key?: unknown } | undefined)?.key;
      this.live.asking(true, typeof key === 'string' ? key : undefined);
      this.emit('question', { questionId, message: capped(params.message), requestedSchema: capped(requestedSchema) });
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

  /** Ends the run: its result, with the timeline read from `_meta["mcpflow/execution"]`; a run ends once (a cancelled run's late answer is dropped). */
  finish(status: RunStatus, messages: RunMessage[], execution: unknown, reason?: string): void {
    if (this.done) return;
    for (const question of this.questions.values()) question.answer({ action: 'cancel' });
    const meta = execution as { status?: RunStatus; reason?: string; stoppedAt?: string; steps?: ExecutedStep[] } | undefined;
    this.view.status = meta?.status ?? status;
    const why = meta?.reason ?? reason;
    if (why !== undefined) this.view.reason = capped(why) as string;
    this.view.messages = capped(messages) as RunMessage[];
    this.view.execution = capped(execution);
    this.ended = Date.now();
    const executed = (Array.isArray(meta?.steps) ? meta.steps.slice(0, MAX_STEP_ROWS) : [])
      .filter((step) => typeof step === 'object' && step !== null && typeof step.name === 'string' && typeof step.status === 'string')
      .map((step) => ({ ...step, name: cappedName(step.name), status: cappedName(step.status) }));
    this.live.finish(executed);
    this.view.steps = this.live.all;
    this.view.timeline = this.timeline(executed);
    const forEach = new Set(this.steps.filter((step) => step.forEach).map((step) => step.name));
    this.view.io = stepIO(
      this.view.messages.map((message) => message.content),
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
      const told = step.iterations?.failures;
      const failures = new Map(
        (Array.isArray(told) ? told : [])
          .filter((failure) => Number.isInteger(failure?.index) && failure.index >= 0 && failure.index < MAX_ITERATION_ROWS)
          .map((failure) => [failure.index, cappedName(failure.status)]),
      );
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
