import { AsyncLocalStorage } from 'node:async_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { ApiError, type Face, type RunEvent, type RunMessage } from './api-types';
import type { RunHistory } from './run-history';
import type { ElicitAnswer, ElicitParams } from './server-connection';
import { StudioRun } from './studio-run';
import { TaskDriver } from './task-driver';
import type { WorkflowEntries, WorkflowListing } from './workflow-list';
import { TIMING_META } from './timing-meta';
import { WireLog } from './wire-log';
import { RERUN_METHOD, RERUN_RESULT, notRerunnable, rerunAsk, serverRunOf } from './studio-rerun';

/** How long the studio waits on one run: a question may wait on the user for a long time. */
const RUN_TIMEOUT_MS = 24 * 60 * 60 * 1000;
/** Why a run stopped when the page cancelled it. */
const CANCELLED = 'The run was cancelled from the studio.';
/** Events after which a run's summary (status, open questions) may have changed. */
const SUMMARY_EVENTS = new Set<RunEvent['type']>(['question', 'question-closed', 'task', 'result']);

/** A result of `prompts/get` or `tools/call`, as the studio reads it. */
interface RunResult {
  readonly messages?: RunMessage[];
  readonly content?: unknown[];
  readonly structuredContent?: { status?: string };
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;
}

/**
 * The runs started from the studio: it starts each through the client (`prompts/get` for the
 * prompt face, `tools/call` for the tool face) and routes the server's questions to the run that
 * asked. A question asked inside a call (an `input_required` round the client fulfils) is the
 * call's own; one asked in place over a session belongs to the run in flight — the most recent one
 * when several are (the 2025 protocol does not say which request asked). The runs are kept in a
 * bounded `RunHistory`; every run's events also go to the page's one event stream (`watch`).
 */
export class RunBook {
  private readonly asking = new AsyncLocalStorage<StudioRun>();
  private readonly watchers = new Set<(chunk: string) => void>();
  /** Each run's raw JSON-RPC messages (`GET /api/runs/:runId/messages`). */
  readonly wire = new WireLog(
    {
      sending: () => this.asking.getStore(),
      asked: () => this.askedRun(),
      ofTask: (taskId) => this.all().find((run) => run.taskId === taskId),
      progressed: (run, update) => run.progress(update),
    },
    // The page's one event stream says a run's raw messages changed; an open "Raw messages" reads them again.
    (run) => this.broadcast('messages', JSON.stringify({ runId: run.runId })),
  );

  constructor(
    private readonly history: RunHistory,
    private readonly client: () => Client,
    /** The server's workflows, a listing that has `workflow` (the last one the studio made, when it does). */
    private readonly listing: (workflow: string) => Promise<WorkflowListing>,
    /** Told each failed request (a server gone away is reconnected). */
    private readonly failed: (error: unknown) => unknown = (error) => error,
  ) {}

  /** The run of this id; 404 when there is none. */
  get(runId: string): StudioRun {
    const run = this.history.get(runId);
    if (!run)
      throw new ApiError(404, `No run ${runId}: start one with POST /api/runs (the studio keeps the last ${this.history.maxRuns}).`);
    return run;
  }

  all(): StudioRun[] {
    return this.history.all();
  }

  /**
   * Hears every run's events as server-sent-event chunks (`GET /api/events`): each run event as
   * `{ runId, seq, data }` under its own type, a `run` event with the run's summary when it
   * starts, asks, changes its task status or ends, and a `messages` event `{ runId }` when a raw
   * JSON-RPC message of the run was kept (`GET /api/runs/:runId/messages`). Returns the unsubscribe.
   */
  watch(watcher: (chunk: string) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  private broadcast(type: string, json: string): void {
    const chunk = `event: ${type}\ndata: ${json}\n\n`;
    for (const watcher of this.watchers) watcher(chunk);
  }

  private follow(run: StudioRun): void {
    this.broadcast('run', JSON.stringify(run.summary()));
    run.subscribe((event, seq, json) => {
      this.broadcast(event.type, `{"runId":${JSON.stringify(run.runId)},"seq":${seq},"data":${json}}`);
      if (SUMMARY_EVENTS.has(event.type)) this.broadcast('run', JSON.stringify(run.summary()));
      if (event.type === 'result') {
        this.history.finished();
        this.evicted();
      }
    });
  }

  /** Keeps a new run (the history may evict older ones) and follows its events. */
  private add(run: StudioRun): void {
    this.history.add(run);
    this.evicted();
    this.follow(run);
  }

  /** The raw-message log forgets the ids of runs the history evicted. */
  private evicted(): void {
    this.wire.prune((run) => this.history.get(run.runId) === run);
  }

  /** The server asks a question: a `question` event of the run that asked, answered from the page. */
  elicit(params: ElicitParams): Promise<ElicitAnswer> {
    const run = this.askedRun();
    if (!run) return Promise.resolve({ action: 'decline' });
    return run.ask(params);
  }

  /** The run a question of the server belongs to: the asking call's own, else the most recent run in flight. */
  private askedRun(): StudioRun | undefined {
    return (
      this.asking.getStore() ??
      this.all()
        .reverse()
        .find((each) => !each.done)
    );
  }

  /** Starts a run of a workflow by one of its faces; returns it at once (the page follows its events). */
  async start(body: unknown): Promise<StudioRun> {
    const { workflow, face, arguments: args } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    if (typeof workflow !== 'string') throw new ApiError(400, 'workflow must be the name of a workflow of GET /api/workflows.', 'workflow');
    if (face !== 'prompt' && face !== 'tool' && face !== 'task') throw new ApiError(400, 'face must be prompt, tool or task.', 'face');
    if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args)))
      throw new ApiError(400, 'arguments must be an object of argument values by name.', 'arguments');
    const listing = await this.listing(workflow);
    const view = listing.workflows.find((each) => each.name === workflow);
    const entries = listing.entries.get(workflow);
    if (!view || !entries) throw new ApiError(404, `The server has no workflow ${workflow}.`, 'workflow');
    if (!view.faces[face]) throw new ApiError(400, `Workflow ${workflow} is not served as a ${face}.`, 'face');
    const values = (args ?? {}) as Record<string, unknown>;
    const run = new StudioRun(workflow, face, view.steps, values, view.sensitive);
    this.add(run);
    run.view.arguments = run.arguments;
    void this.asking.run(run, () => this.drive(run, face, entries, values));
    return run;
  }

  /**
   * Reruns a finished run through the server's `mcpflow/rerun` (a server in dev mode: `mcpflow dev
   * --command` starts its child with `MCPFLOW_DEV=1`): from the start with the same or edited
   * arguments, or from a step (`fromStep`), the earlier steps' outputs as the server recorded them.
   * Returns the new run at once; 409 for a run its server did not record.
   */
  async rerun(runId: string, body: unknown): Promise<StudioRun> {
    const origin = this.get(runId);
    const ask = rerunAsk(body);
    if (!origin.done) throw notRerunnable(runId, 'it is still running.');
    const recorded = origin.view.serverRun;
    if (!recorded)
      throw notRerunnable(
        runId,
        'its server did not record it. The server records runs in dev mode only: start it with mcpflow dev --command (which sets MCPFLOW_DEV=1), or serve it with the WorkflowServer option dev: true. A task run is not recorded.',
      );
    const { workflow, face } = origin.view;
    const listing = await this.listing(workflow);
    const view = listing.workflows.find((each) => each.name === workflow);
    const entries = listing.entries.get(workflow);
    if (!view || !entries) throw new ApiError(404, `The server has no workflow ${workflow} any more.`, 'workflow');
    const run = new StudioRun(workflow, face, view.steps, ask.arguments ?? origin.view.arguments ?? {}, view.sensitive);
    this.add(run);
    run.view.rerunOf = origin.runId;
    if (ask.fromStep !== undefined) run.view.rerunFrom = ask.fromStep;
    run.view.arguments = run.arguments;
    const args = ask.arguments && (face === 'prompt' ? promptArguments(ask.arguments) : typedArguments(ask.arguments, entries.inputSchema));
    const params = { runId: recorded.id, ...(ask.fromStep !== undefined && { fromStep: ask.fromStep }), ...(args && { arguments: args }) };
    const options = {
      onprogress: askForProgress,
      timeout: RUN_TIMEOUT_MS,
    };
    void this.asking.run(run, async () => {
      try {
        const result = await this.client().request(
          { method: RERUN_METHOD, params: { ...params, _meta: TIMING_META } } as never,
          RERUN_RESULT,
          options,
        );
        if (face === 'prompt') finishPrompt(run, result);
        else finishTool(run, result);
      } catch (error) {
        run.fail(this.failed(error));
      }
    });
    return run;
  }

  /** Cancels a task started from the studio (`tasks/cancel`); 404 for a task it did not start. */
  async cancelTask(taskId: string): Promise<void> {
    const run = this.all().find((each) => each.taskId === taskId);
    if (!run) throw new ApiError(404, `No task ${taskId} was started from this studio.`);
    this.cancel(run.runId);
  }

  /**
   * Cancels a run: its request is aborted (`notifications/cancelled` for a prompt or tool run,
   * `tasks/cancel` for a task) and it ends `cancelled` now, its open questions answered `cancel`
   * (a question asked in place holds the request open until it is answered); a run already ended
   * stays as it ended.
   */
  cancel(runId: string): void {
    const run = this.get(runId);
    if (run.done) return;
    run.stop.abort(new Error(CANCELLED));
    // A task ends with its run, now: the abort sends tasks/cancel, whose round trip must not leave the
    // tasks list saying `working` for a run that reads `cancelled`.
    const { taskId } = run;
    if (taskId !== undefined) {
      run.taskStatus = 'cancelled';
      const { version } = run.view;
      run.emit('task', { taskId, status: 'cancelled', ...(version === undefined ? {} : { version }) });
    }
    run.finish('cancelled', [], undefined, CANCELLED);
  }

  private async drive(run: StudioRun, face: Face, entries: WorkflowEntries, args: Record<string, unknown>): Promise<void> {
    const options = {
      onprogress: askForProgress,
      timeout: RUN_TIMEOUT_MS,
      signal: run.stop.signal,
    };
    try {
      if (face === 'prompt') {
        finishPrompt(
          run,
          await this.client().getPrompt({ name: entries.prompt!, arguments: promptArguments(args), _meta: TIMING_META }, options),
        );
      } else if (face === 'task') {
        const driver = new TaskDriver(this.client, run, (result) => finishTool(run, result));
        await driver.start(entries.tool!, typedArguments(args, entries.inputSchema), () =>
          this.broadcast('run', JSON.stringify(run.summary())),
        );
      } else {
        finishTool(
          run,
          await this.client().callTool(
            { name: entries.tool!, arguments: typedArguments(args, entries.inputSchema), _meta: TIMING_META },
            options,
          ),
        );
      }
    } catch (error) {
      if (run.stop.signal.aborted) run.finish('cancelled', [], undefined, CANCELLED);
      else run.fail(this.failed(error));
    }
  }
}

/** A prompt's arguments are strings: the page's other values as JSON. */
function promptArguments(args: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]));
}

/** Ends a run from a `prompts/get` result: its messages are the conversation. */
function finishPrompt(run: StudioRun, raw: unknown): void {
  const result = raw as RunResult;
  recordedBy(run, result);
  run.finish('completed', result.messages ?? [], result._meta?.['mcpflow/execution']);
}

/** The server's record of the run, when it keeps one (dev mode): the page then offers Rerun. */
function recordedBy(run: StudioRun, result: RunResult): void {
  const recorded = serverRunOf(result._meta);
  if (recorded) run.view.serverRun = recorded;
  run.versionFrom(result._meta?.['mcpflow/run']);
}

/** Ends a run from a `tools/call` result: its content blocks are the conversation, `isError` a failure. */
function finishTool(run: StudioRun, raw: unknown): void {
  const result = raw as RunResult;
  recordedBy(run, result);
  const messages = (result.content ?? []).map((content) => ({ role: 'assistant' as const, content }));
  run.finish(
    result.isError ? 'failed' : 'completed',
    messages,
    result._meta?.['mcpflow/execution'] ?? (result.structuredContent as unknown),
  );
}

/** The page's values as the tool's input schema types them: a number or boolean typed as text is parsed. */
function typedArguments(args: Record<string, unknown>, schema: WorkflowEntries['inputSchema']): Record<string, unknown> {
  const properties = schema?.properties ?? {};
  return Object.fromEntries(
    Object.entries(args).map(([name, value]) => {
      const type = Object.hasOwn(properties, name) ? properties[name].type : undefined;
      if (typeof value !== 'string' || type === 'string' || type === undefined) return [name, value];
      try {
        return [name, JSON.parse(value) as unknown];
      } catch {
        return [name, value];
      }
    }),
  );
}

/**
 * A request's `onprogress`: it makes the SDK ask the server for progress (a progress token). The
 * run takes each notification off the wire (`WireLog`, `progressed`), where none is missed.
 */
function askForProgress(): void {}
