import { isTerminalTaskStatus, type TaskRecord, type TaskRoundRunner, type TaskStore } from './task-store';

/** What runs a round of a task for its tool: the server that serves the tool. */
export interface RoundServer {
  runRound(record: TaskRecord, signal: AbortSignal, context: unknown): Promise<void>;
}

/** A plain tool's handler already running since the call that made its task (it did not settle at once). */
interface AdoptedRound {
  readonly running: Promise<unknown>;
  readonly controller: AbortController;
}

const dispatches = new WeakMap<TaskStore, TaskDispatch>();

/**
 * The round runner a store is given (one per store and process): it finds the server that serves
 * a task's tool (the latest built — with a server per request, any of them serves the same tools)
 * and hands it the round, with the context of the request that last moved the task on (the call,
 * or the `tasks/update` that answered its questions) when this process still holds it.
 *
 * @example
 * ```ts
 * TaskDispatch.of(store).serve('build', serverTasks);
 * ```
 */
export class TaskDispatch implements TaskRoundRunner {
  private readonly servers = new Map<string, RoundServer>();
  private readonly contexts = new Map<string, unknown>();
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
    this.started ??= this.store.start(this);
  }

  /** The context the task's next round runs with. */
  remember(taskId: string, context: unknown): void {
    this.contexts.set(taskId, context);
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
    const server = this.servers.get(record.tool);
    if (!server) {
      await this.store.update(taskId, record.version, {
        status: 'failed',
        statusMessage: `no server in this process serves tool ${record.tool}`,
      });
      return;
    }
    const context = this.contexts.get(taskId);
    try {
      await server.runRound(record, signal, context);
    } finally {
      const now = await this.store.get(taskId);
      if (!now || isTerminalTaskStatus(now.status)) this.forget(taskId);
    }
  }

  expired(taskId: string): void {
    this.forget(taskId);
    this.log?.(`mcpflow task expired: ${taskId.slice(0, 8)}`);
  }
}
