import { rememberSharedStore } from './hand-over-rounds';
import { isTerminalTaskStatus, type TaskRecord, type TaskRoundRunner, type TaskStore } from './task-store';

/** What runs a round of a task for its tool: the server that serves the tool. */
export interface RoundServer {
  /** Runs the round and records how it ended: whether it did (then the server forgot a task that ended). */
  runRound(record: TaskRecord, signal: AbortSignal, context: unknown): Promise<boolean>;
}

/** A plain tool's handler already running since the call that made its task (it did not settle at once). */
interface AdoptedRound {
  readonly running: Promise<unknown>;
  readonly controller: AbortController;
}

const dispatches = new WeakMap<TaskStore, TaskDispatch>();

/**
 * The round runner a store is given (one per store and process): it hands a task's round to the
 * server that made or last answered the task, else to the latest built that serves its tool (with
 * a server per request, any of them serves the same tools), with the context of the request that last moved the task on (the call,
 * or the `tasks/update` that answered its questions) when this process still holds it.
 *
 * @example
 * ```ts
 * TaskDispatch.of(store).serve('build', serverTasks);
 * ```
 */
export class TaskDispatch implements TaskRoundRunner {
  private readonly servers = new Map<string, RoundServer>();
  /** Per task, what the request that last moved it on left: its context, and the server that answered it. */
  private readonly contexts = new Map<string, { readonly context: unknown; readonly server: RoundServer }>();
  private readonly adoptedRounds = new Map<string, AdoptedRound>();
  private started?: Promise<void>;
  private log?: (line: string) => void;

  private constructor(private readonly store: TaskStore) {}

  static of(store: TaskStore): TaskDispatch {
    let dispatch = dispatches.get(store);
    if (!dispatch) {
      dispatch = new TaskDispatch(store);
      dispatches.set(store, dispatch);
    }
    return dispatch;
  }

  /** `server` runs the rounds of `tool`'s tasks from now on; `log` gets the store's own events (a task expired). */
  serve(tool: string, server: RoundServer, log?: (line: string) => void): void {
    this.servers.set(tool, server);
    this.log = log;
    if (!this.started) rememberSharedStore(this.store);
    void this.ready().catch(() => undefined);
  }

  /**
   * Resolves once the store runs rounds here (its `start`, once); a start that failed (Redis down)
   * rejects with an error that says so and is tried again at the next call, so a task is never
   * made that no round would run.
   */
  ready(): Promise<void> {
    this.started ??= this.store.start(this).catch((error: unknown) => {
      this.started = undefined;
      throw new Error(
        `mcpflow tasks: the task store did not start, so no task can run yet (it is tried again at the next task): ${(error as Error)?.message ?? String(error)}`,
        { cause: error },
      );
    });
    return this.started;
  }

  /** The context the task's next round runs with, and the server that runs it (the one that made or answered the task). */
  remember(taskId: string, context: unknown, server: RoundServer): void {
    this.contexts.set(taskId, { context, server });
  }

  /** The first round of a plain tool's task is the handler the call started. */
  adopt(taskId: string, running: Promise<unknown>, controller: AbortController): void {
    this.adoptedRounds.set(taskId, { running, controller });
  }

  /** The handler adopted for this task's round, once (aborted with `signal`), if this process started one. */
  adopted(taskId: string, signal: AbortSignal): Promise<unknown> | undefined {
    const adopted = this.adoptedRounds.get(taskId);
    if (!adopted) return undefined;
    this.adoptedRounds.delete(taskId);
    if (signal.aborted) adopted.controller.abort();
    else signal.addEventListener('abort', () => adopted.controller.abort(), { once: true });
    return adopted.running;
  }

  /** Forgets what this process holds for a task (it ended, was cancelled or expired). */
  forget(taskId: string): void {
    this.contexts.delete(taskId);
    const adopted = this.adoptedRounds.get(taskId);
    adopted?.controller.abort();
    this.adoptedRounds.delete(taskId);
  }

  async runRound(taskId: string, signal: AbortSignal): Promise<void> {
    const record = await this.store.get(taskId);
    if (!record || isTerminalTaskStatus(record.status)) return;
    const local = this.contexts.get(taskId);
    const server = local?.server ?? this.servers.get(record.tool);
    if (!server) {
      await this.store.update(taskId, record.version, {
        status: 'failed',
        statusMessage: `no server in this process serves tool ${record.tool}`,
      });
      return;
    }
    let recorded = false;
    try {
      recorded = await server.runRound(record, signal, local?.context);
    } finally {
      // A round that did not record its end (cancelled, taken over, failed): what the task came to decides.
      if (!recorded) {
        const now = await (this.store.view?.(taskId) ?? this.store.get(taskId));
        if (!now || isTerminalTaskStatus(now.status)) this.forget(taskId);
      }
    }
  }

  expired(taskId: string): void {
    this.forget(taskId);
    this.log?.(`mcpflow task expired: ${taskId.slice(0, 8)}`);
  }
}
