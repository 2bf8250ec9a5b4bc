import {
  isTerminalTaskStatus,
  type FenceResult,
  type NewTask,
  type RoundChange,
  type TaskChange,
  type TaskChangeResult,
  type TaskRecord,
  type TaskRoundRunner,
  type TaskStore,
} from './task-store';
import { storedBytes, taskStoreOptions, tooLargeTask, tooManyClientTasks, tooManyTasks, type TaskStoreOptions } from './task-store-options';

/** The options of `memoryTasks()`: `maxTasks`, `maxTasksPerClient`, `ttlMs`, `pollIntervalMs` and `maxTaskBytes`, with the defaults every store shares. */
export type MemoryTasksOptions = TaskStoreOptions;

interface Entry {
  record: TaskRecord;
  readonly expiry: NodeJS.Timeout;
  round?: AbortController;
}

/**
 * The default task store (DESIGN §2.13): tasks in this process's memory, bounded by `maxTasks`,
 * each forgotten `ttlMs` after its creation (its timer does not keep the process alive), all lost
 * when the process ends. Rounds run in this process, one at a time per task. For several instances,
 * use `bullmqTasks()`.
 *
 * @example
 * ```ts
 * new WorkflowServer({ name: 'builds', version: '1.0.0' }, { tasks: memoryTasks({ maxTasks: 100, ttlMs: 600_000 }) });
 * ```
 */
export function memoryTasks(options: MemoryTasksOptions = {}): TaskStore {
  return new MemoryTaskStore(options);
}

class MemoryTaskStore implements TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  private readonly maxTasks: number;
  private readonly maxTaskBytes: number;
  private readonly maxTasksPerClient: number;
  private readonly tasks = new Map<string, Entry>();
  /** How many tasks each client keeps (`NewTask.client`). */
  private readonly byClient = new Map<string, number>();
  private runner?: TaskRoundRunner;
  private closed = false;

  constructor(options: MemoryTasksOptions) {
    ({
      maxTasks: this.maxTasks,
      maxTasks: this.maxTasks,
      maxTasksPerClient: this.maxTasksPerClient,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      maxTaskBytes: this.maxTaskBytes,
    } = taskStoreOptions('memoryTasks', options));
  }

  async start(runner: TaskRoundRunner): Promise<void> {
    this.runner = runner;
    this.closed = false;
  }

  async create(task: NewTask): Promise<TaskRecord> {
    if (this.tasks.size >= this.maxTasks) throw tooManyTasks('memoryTasks', this.maxTasks, 'this server');
    const bytes = storedBytes(task.call);
    if (bytes > this.maxTaskBytes) throw tooLargeTask('memoryTasks', bytes, this.maxTaskBytes);
    const kept = task.client === undefined ? 0 : (this.byClient.get(task.client) ?? 0);
    if (kept >= this.maxTasksPerClient) throw tooManyClientTasks('memoryTasks', this.maxTasksPerClient);
    if (task.client !== undefined) this.byClient.set(task.client, kept + 1);
    const record: TaskRecord = { ...task, status: 'working', version: 1, lastUpdatedAt: task.createdAt };
    const expiry = setTimeout(() => this.expire(task.taskId), Math.max(0, task.createdAt + task.ttlMs - Date.now()));
    expiry.unref();
    this.tasks.set(task.taskId, { record, expiry });
    return record;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    return this.tasks.get(taskId)?.record;
  }

  async update(taskId: string, expectedVersion: number, change: TaskChange): Promise<TaskChangeResult> {
    const entry = this.tasks.get(taskId);
    if (!entry || entry.record.version !== expectedVersion || isTerminalTaskStatus(entry.record.status)) {
      return { ok: false, task: entry?.record };
    }
    entry.record = applyChange(entry.record, change);
    return { ok: true, task: entry.record };
  }

  async fence(taskId: string, expectedVersion: number, round: AbortSignal, change: RoundChange = {}): Promise<FenceResult> {
    const entry = this.tasks.get(taskId);
    const why = !entry
      ? 'gone'
      : isTerminalTaskStatus(entry.record.status)
        ? 'terminal'
        : entry.round?.signal !== round || round.aborted
          ? 'lost'
          : entry.record.version !== expectedVersion || entry.record.status !== 'working'
            ? 'changed'
            : [entry.record.call, ...(entry.record.checkpoints ?? []), change.checkpoint].reduce(
                  (sum, value) => sum + storedBytes(value),
                  0,
                ) > this.maxTaskBytes
              ? 'too-large'
              : undefined;
    if (why) {
      if (why !== 'too-large' && entry?.round?.signal === round) entry.round.abort();
      return { held: false, why };
    }
    if (change.end) {
      entry!.record = applyChange(entry!.record, change.end);
      return { held: true, version: entry!.record.version };
    }
    const { checkpoints = [] } = entry!.record;
    entry!.record = applyChange(entry!.record, { statusMessage: change.statusMessage, step: change.step });
    if (change.checkpoint !== undefined) entry!.record = { ...entry!.record, checkpoints: [...checkpoints, change.checkpoint] };
    return { held: true, version: entry!.record.version };
  }

  async cancel(taskId: string): Promise<TaskRecord | undefined> {
    const entry = this.tasks.get(taskId);
    if (!entry) return undefined;
    if (!isTerminalTaskStatus(entry.record.status)) {
      entry.record = applyChange(entry.record, { status: 'cancelled', state: null, checkpoints: null, inputRequests: null, answers: null });
      entry.round?.abort();
    }
    return entry.record;
  }

  async schedule(taskId: string): Promise<void> {
    const entry = this.tasks.get(taskId);
    const runner = this.runner;
    if (!entry || !runner || this.closed || isTerminalTaskStatus(entry.record.status)) return;
    const round = new AbortController();
    entry.round = round;
    void runner
      .runRound(taskId, round.signal)
      .catch(() => undefined)
      .finally(() => {
        if (entry.round === round) entry.round = undefined;
      });
  }

  async expired(now: number): Promise<readonly string[]> {
    return [...this.tasks.values()].filter(({ record }) => record.createdAt + record.ttlMs < now).map(({ record }) => record.taskId);
  }

  async remove(taskId: string): Promise<void> {
    const entry = this.tasks.get(taskId);
    if (!entry) return;
    clearTimeout(entry.expiry);
    entry.round?.abort();
    this.tasks.delete(taskId);
    const { client } = entry.record;
    if (client !== undefined) {
      const kept = this.byClient.get(client)! - 1;
      if (kept === 0) this.byClient.delete(client);
      else this.byClient.set(client, kept);
    }
  }

  private expire(taskId: string): void {
    void this.remove(taskId);
    this.runner?.expired?.(taskId);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.tasks.values()) entry.round?.abort();
  }
}

/** The task after `change`: fields left out stay, `null` removes one; the version moves on. */
function applyChange(record: TaskRecord, change: TaskChange): TaskRecord {
  const next: Record<string, unknown> = {
    ...record,
    version: record.version + 1,
    lastUpdatedAt: Math.max(Date.now(), record.lastUpdatedAt),
  };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next as unknown as TaskRecord;
}
