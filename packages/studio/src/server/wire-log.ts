import { detached, heapBytes } from './kept-string';
import type { StudioRun } from './studio-run';

/** Which way a JSON-RPC message went: `sent` by the studio's client, `received` from the server. */
export type WireDirection = 'sent' | 'received';

/** One raw JSON-RPC message of a run, as `GET /api/runs/:runId/messages` shows it. */
export interface WireEntry {
  readonly direction: WireDirection;
  /** The message's JSON, capped at `MAX_MESSAGE_CHARS` with a `[truncated]` mark. */
  readonly text: string;
}

/** At most this many messages are kept a run: the oldest go first (and are counted). */
const MAX_RUN_MESSAGES = 200;
/** At most this many characters of one message's JSON are kept. */
const MAX_MESSAGE_CHARS = 16 * 1024;
/**
 * At most this many ids each of the log's maps remembers (requests in flight, progress tokens,
 * server requests, calls waiting on their retry): past it the oldest is forgotten, so requests that
 * are never answered cannot grow the studio's memory (a message of a forgotten id is no run's).
 */
export const MAX_PENDING_IDS = 1000;

interface Kept {
  readonly entries: WireEntry[];
  dropped: number;
}

/** How the log finds a run that no id names. */
export interface WireRuns {
  /** The run whose async context sends a message (a request the run makes), if any. */
  readonly sending: () => StudioRun | undefined;
  /** The run a server request (an `elicitation/create`) that no id names belongs to, as `RunBook.elicit` picks it. */
  readonly asked: () => StudioRun | undefined;
  /** The run of a task id. */
  readonly ofTask: (taskId: string) => StudioRun | undefined;
  /**
   * Told each progress notification of a run as it comes off the wire (its params without the
   * token). The SDK 2.x `Client`'s own `onprogress` misses one that arrives in the same chunk as
   * its request's result: it hands the notification on a microtask late, once the result removed
   * the handler.
   */
  readonly progressed?: (run: StudioRun, update: { progress: number; total?: number; message?: string }) => void;
}

type Message = Partial<Record<string, unknown>> & { params?: Partial<Record<string, unknown>> & { _meta?: Record<string, unknown> } };

/**
 * The raw JSON-RPC messages of each run, as the studio's client saw them on the wire (DESIGN §2.15):
 * a request the run sends (by its async context) names the run by its id and progress token; the
 * server's response, its progress notifications and task notifications are the run's by those ids
 * and the task id; a request of the server is the run's that `RunBook.elicit` answers it for, and
 * the studio's answer is the run's by that request's id. Each message is capped before it is kept.
 */
export class WireLog {
  private readonly kept = new WeakMap<StudioRun, Kept>();
  /** The runs of the client's requests in flight, by request id. */
  private readonly requests = new Map<unknown, { run: StudioRun; token?: unknown; call: string }>();
  /**
   * The runs whose call the server answered `input_required`, by the call's retry (method, name,
   * arguments, `requestState`): the client sends the retry with the answers from outside the run's
   * async context, so the retry is known by what it repeats.
   */
  private readonly retries = new Map<string, StudioRun[]>();
  /** The runs of the server's requests in flight, by request id (its ids are not the client's). */
  private readonly serverRequests = new Map<unknown, StudioRun>();
  private readonly tokens = new Map<unknown, StudioRun>();

  constructor(
    private readonly runs: WireRuns,
    /** Told each message kept for a run (the page's event stream says the run's messages changed). */
    private readonly onKept?: (run: StudioRun) => void,
  ) {}

  /** Records a message of the connection: kept for its run, or dropped when it is no run's. */
  record(direction: WireDirection, raw: unknown): void {
    const message = (typeof raw === 'object' && raw !== null ? raw : {}) as Message;
    const run = direction === 'sent' ? this.sentBy(message) : this.receivedFor(message);
    if (!run) return;
    this.keep(run, direction, raw);
    if (direction === 'received' && message.method === 'notifications/progress' && typeof message.params?.progress === 'number') {
      const { progressToken: _token, ...update } = message.params as { progressToken: unknown; progress: number };
      this.runs.progressed?.(run, update);
    }
  }

  /** Forgets the ids of every run `isKept` no longer holds (the history evicted it): its late messages are no run's. */
  prune(isKept: (run: StudioRun) => boolean): void {
    for (const map of [this.requests, this.serverRequests, this.tokens] as Map<unknown, StudioRun | { run: StudioRun }>[])
      for (const [id, value] of map) if (!isKept('run' in value ? value.run : value)) map.delete(id);
    for (const [retry, waiting] of this.retries) {
      const left = waiting.filter(isKept);
      if (left.length === 0) this.retries.delete(retry);
      else this.retries.set(retry, left);
    }
  }

  /** How many ids the log remembers, all maps together (each at most `MAX_PENDING_IDS`). */
  pending(): number {
    return this.requests.size + this.serverRequests.size + this.tokens.size + this.retries.size;
  }

  /** A run's messages, oldest first, and how many older ones were dropped. */
  of(run: StudioRun): { messages: WireEntry[]; dropped: number } {
    const kept = this.kept.get(run);
    return { messages: [...(kept?.entries ?? [])], dropped: kept?.dropped ?? 0 };
  }

  private sentBy(message: Message): StudioRun | undefined {
    if (message.method === undefined && 'id' in message) {
      const run = this.serverRequests.get(message.id);
      this.serverRequests.delete(message.id);
      return run;
    }
    const call = callOf(message.method, message.params);
    const run = this.runs.sending() ?? this.retried(call, message.params);
    if (run && message.method !== undefined && 'id' in message) {
      const token = message.params?._meta?.progressToken;
      remember(this.requests, message.id, { run, token, call });
      if (token !== undefined) remember(this.tokens, token, run);
    }
    // A cancelled request is never answered (MCP's cancellation): its ids are forgotten now.
    if (message.method === 'notifications/cancelled') this.answered(message.params?.requestId);
    return run;
  }

  private receivedFor(message: Message): StudioRun | undefined {
    if (message.method === undefined) {
      const request = this.answered(message.id);
      const result = message.result as { resultType?: unknown; requestState?: unknown } | undefined;
      if (request && result?.resultType === 'input_required') {
        const retry = `${request.call}${JSON.stringify(result.requestState ?? null)}`;
        remember(this.retries, retry, [...(this.retries.get(retry) ?? []), request.run]);
      }
      return request?.run;
    }
    const taskId = message.params?.taskId;
    if ('id' in message) {
      const run = (typeof taskId === 'string' ? this.runs.ofTask(taskId) : undefined) ?? this.runs.asked();
      if (run) remember(this.serverRequests, message.id, run);
      return run;
    }
    const token = message.params?.progressToken;
    if (token !== undefined) return this.tokens.get(token);
    return typeof taskId === 'string' ? this.runs.ofTask(taskId) : undefined;
  }

  /** Forgets request `id` and its progress token (it was answered, or cancelled); what it was. */
  private answered(id: unknown): { run: StudioRun; token?: unknown; call: string } | undefined {
    const request = this.requests.get(id);
    this.requests.delete(id);
    if (request?.token !== undefined) this.tokens.delete(request.token);
    return request;
  }

  /** The run a retry of an `input_required` call belongs to (the oldest such, when runs made the same call). */
  private retried(call: string, params: Message['params']): StudioRun | undefined {
    if (params?.inputResponses === undefined && params?.requestState === undefined) return undefined;
    const retry = `${call}${JSON.stringify(params.requestState ?? null)}`;
    const waiting = this.retries.get(retry);
    const run = waiting?.shift();
    if (waiting?.length === 0) this.retries.delete(retry);
    return run;
  }

  private keep(run: StudioRun, direction: WireDirection, raw: unknown): void {
    const kept = this.kept.get(run) ?? { entries: [], dropped: 0 };
    this.kept.set(run, kept);
    const text = run.hide(cappedJson(raw));
    kept.entries.push({ direction, text });
    // A run's raw messages count in its bytes, which the history's bound (`--history-bytes`) holds.
    run.bytes += heapBytes(text);
    if (kept.entries.length > MAX_RUN_MESSAGES) {
      run.bytes -= heapBytes(kept.entries.shift()!.text);
      kept.dropped += 1;
    }
    this.onKept?.(run);
  }
}

/** Sets `key` in `map`, the oldest key forgotten past `MAX_PENDING_IDS` (a Map iterates in insertion order). */
function remember<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_PENDING_IDS) map.delete(map.keys().next().value as K);
}

/** What a call repeats when it is retried with its answers: its method, name and arguments. */
function callOf(method: unknown, params: Message['params']): string {
  return JSON.stringify([method, params?.name ?? null, params?.arguments ?? null]);
}

/** A message's JSON, at most `MAX_MESSAGE_CHARS` of it and a visible mark when there was more. */
function cappedJson(raw: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(raw, null, 2) ?? String(raw);
  } catch (error) {
    text = `(not JSON: ${error instanceof Error ? error.message : String(error)})`;
  }
  // The cut is a copy: a slice would hold the whole message's JSON (a 1 MB result for 16 KiB shown).
  return text.length <= MAX_MESSAGE_CHARS
    ? text
    : detached(`${text.slice(0, MAX_MESSAGE_CHARS)}\n... [truncated: ${text.length - MAX_MESSAGE_CHARS} more characters]`);
}
