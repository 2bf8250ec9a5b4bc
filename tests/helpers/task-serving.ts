import {
  callTool,
  resumeTask,
  TaskInputError,
  type CallToolOptions,
  type InputRequests,
  type ToolCall,
  type ToolResult,
} from '@mcpflow/client';
import { Client, StreamableHTTPClientTransport, type AuthInfo, type ClientCapabilities } from '@modelcontextprotocol/client';
import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';

/** Where an in-process client's requests go (never on a network: the handler takes them). */
const ENDPOINT = new URL('http://127.0.0.1/mcp');

/** How often a test's client polls `tasks/get` (the server is on this machine: not the server's second). */
export const POLL_MS = 2;

/** What a test's agent declares by default: it has a user to ask (without it an mcpflow run hands a question off). */
const ASKS_USER: ClientCapabilities = { elicitation: { form: {} } };

/** How a test connects an SDK 2.x `Client`. */
export interface ConnectOptions {
  /** The principal its requests carry, as an authenticating transport hands it on. */
  readonly authInfo?: AuthInfo;
  /** Its capabilities; default elicitation (form). */
  readonly capabilities?: ClientCapabilities;
}

/** A server from `factory` per request, through the SDK's stateless serving (`createMcpHandler`), in this process. */
export interface InProcessServing {
  /** Posts one request to the handler, carrying `authInfo` (what the raw wire helper sends through). */
  fetch(request: Request, authInfo?: AuthInfo): Promise<Response>;
  /** A new SDK 2.x `Client` of it (protocol 2026-07-28); the serving's `close()` closes it too. */
  connect(options?: ConnectOptions): Promise<Client>;
  close(): Promise<void>;
}

export function serveInProcess(factory: () => McpServer): InProcessServing {
  const handler = createMcpHandler(factory);
  const clients: Client[] = [];
  const fetch = (request: Request, authInfo?: AuthInfo) => handler.fetch(request, authInfo ? { authInfo } : undefined);
  return {
    fetch,
    async connect(options = {}) {
      const client = await connectOver(ENDPOINT, options, (url, init) => fetch(new Request(url, init), options.authInfo));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
      await handler.close();
    },
  };
}

/** A new SDK 2.x `Client` of a server on `url` (`serveHttp` on 127.0.0.1), negotiating its protocol as an agent does. */
export function connectHttp(url: URL, options: Omit<ConnectOptions, 'authInfo'> = {}): Promise<Client> {
  return connectOver(url, options);
}

async function connectOver(
  url: URL,
  options: ConnectOptions,
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>,
): Promise<Client> {
  const client = new Client(
    { name: 'mcpflow-test-agent', version: '1.0.0' },
    { versionNegotiation: { mode: 'auto' }, capabilities: options.capabilities ?? ASKS_USER },
  );
  await client.connect(new StreamableHTTPClientTransport(url, fetch ? { fetch } : {}));
  return client;
}

/**
 * The questions a task waits on: `resumeTask` without `onInput` follows it until it asks (then it
 * rejects with a `TaskInputError` carrying them, and the task keeps waiting). A task that ends
 * without asking fails the test.
 */
export async function openQuestions(client: Client, taskId: string): Promise<InputRequests> {
  try {
    await resumeTask(client, taskId, { pollIntervalMs: POLL_MS });
  } catch (error) {
    if (error instanceof TaskInputError) return error.requests;
    throw error;
  }
  throw new Error(`Task ${taskId} completed without asking a question.`);
}

/** A task started through `callTool`, which follows it on. */
export interface StartedTask {
  readonly taskId: string;
  /** How the call ends (its result, or why it rejected). */
  readonly done: Promise<ToolResult>;
  /** Aborts the call, which cancels the task; resolves with the call's rejection. */
  stop(): Promise<unknown>;
}

/**
 * Calls a task tool through `@mcpflow/client` and resolves once the server made the task (its id
 * heard by `onStatus`), while the call follows it on; rejects as the call does when no task is made.
 */
export async function startTask(client: Client, call: ToolCall, options: Omit<CallToolOptions, 'signal'> = {}): Promise<StartedTask> {
  const stop = new AbortController();
  let taskId = '';
  let settled: { error?: unknown } | undefined;
  const done = callTool(client, call, {
    pollIntervalMs: POLL_MS,
    ...options,
    signal: stop.signal,
    onStatus: (task) => {
      taskId ||= task.taskId;
      options.onStatus?.(task);
    },
  });
  done.then(
    () => (settled ??= {}),
    (error: unknown) => (settled ??= { error }),
  );
  while (!taskId) {
    if (settled) throw settled.error ?? new Error(`${call.name} answered in the request: no task was made.`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return {
    taskId,
    done,
    stop: () => {
      stop.abort(new Error('stopped by the test'));
      return done.catch((error: unknown) => error);
    },
  };
}
