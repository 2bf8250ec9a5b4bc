import type { ChildProcess } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ConnectionState, ServerView } from './api-types';
import { reapOnExit } from './child-reaper';
import { commandWords } from './command-words';
import { shownUrl, withCredentialsAsHeader, withUrlsShown } from './shown-url';

/** The server the studio is a client of: a command it starts (stdio) or a Streamable HTTP URL. */
export type StudioTarget =
  | { readonly command: string }
  | {
      readonly url: string;
      /** Headers sent with every request to the server (`--header 'Authorization: Bearer …'`). */
      readonly headers?: Readonly<Record<string, string>>;
    };

/** An `elicitation/create` request's params, as the studio's handler receives them. */
export interface ElicitParams {
  readonly message: string;
  readonly requestedSchema?: object;
  readonly mode?: string;
  /** An mcpflow server's `"mcpflow/question": { key: "<step>/<argument>" }` names the step that asks. */
  readonly _meta?: Record<string, unknown>;
}

/**
 * An elicitation's params, with the question's key (`<step>/<argument>`) where an mcpflow server
 * gave one: in its `_meta["mcpflow/question"]` (a question asked during the request), or as the
 * `inputRequests` key of an `input_required` round the client fulfils. The SDK hands that key to the
 * handler as its context's request id (a string; a wire request's id is a number), not in the
 * request it passes, whose `id` it drops.
 */
export function keyed(params: ElicitParams, requestId: unknown): ElicitParams {
  if (params._meta?.['mcpflow/question'] !== undefined || typeof requestId !== 'string') return params;
  return { ...params, _meta: { ...params._meta, 'mcpflow/question': { key: requestId } } };
}

/** What the studio answers an `elicitation/create` with. */
export type ElicitAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' };

/** Options of a connection: who answers the server's questions, and who hears of state changes. */
export interface ConnectionHooks {
  readonly elicit: (params: ElicitParams) => Promise<ElicitAnswer>;
  readonly onState?: (view: ServerView['connection']) => void;
  /** Called after each (re)connect: the lists may have changed. */
  readonly onConnected?: () => void;
  /** Hears each JSON-RPC message the client sends or receives, as it goes over the wire (the run's raw messages). */
  readonly onWire?: (direction: 'sent' | 'received', message: unknown) => void;
}

const STDERR_KEPT = 8192;
/** A stdio command that keeps exiting is started again this many times, then shown `failed` (Reconnect tries again). */
const RESTART_TRIES = 20;
/** The first wait before reconnecting; it doubles each failed try up to `RECONNECT_MAX_DELAY_MS`. */
const RECONNECT_DELAY_MS = 500;
const RECONNECT_MAX_DELAY_MS = 10_000;
/** How long closing waits for the server to end the studio's session before it stops anyway. */
const SESSION_END_MS = 1000;

/**
 * The studio's MCP client of the user's server (SDK 2.x `Client`): protocol 2026-07-28 where the
 * server speaks it, else the 2025 handshake (`versionNegotiation: 'auto'`); it declares elicitation
 * (form) so a question reaches the page, in place or as an `input_required` round alike. Its state
 * is what `GET /api/server` shows; a server that goes away (a restarted stdio command, an HTTP
 * server that stops answering) is reconnected: `reconnecting`, then `connected` or `failed`.
 */
export class ServerConnection {
  private state: ConnectionState = 'connecting';
  private error?: string;
  private stderr = '';
  private client?: Client;
  /** The client's transport when the target is a URL: it ends the session on close. */
  private http?: StreamableHTTPClientTransport;
  private closing = false;
  /** How the stdio server's last process that ended on its own ended (kept after the restart: the page shows the crash). */
  private exit?: { code: number | null; signal: string | null };
  /** Ends the current wait between reconnect tries (the page's Reconnect). */
  private wake?: () => void;

  constructor(
    private readonly target: StudioTarget,
    private readonly hooks: ConnectionHooks,
  ) {}

  /** What the target is, in words: the command, or the URL. */
  get targetText(): string {
    return 'command' in this.target ? this.target.command : shownUrl(this.target.url);
  }

  view(): ServerView {
    const connection = {
      state: this.state,
      target: this.targetText,
      ...(this.error === undefined ? {} : { error: this.error }),
      ...(this.stderr === '' ? {} : { stderr: this.stderr }),
      ...(this.exit === undefined ? {} : { exit: this.exit }),
    };
    const info = this.state === 'connected' ? this.client?.getServerVersion() : undefined;
    const protocolVersion = this.client?.getNegotiatedProtocolVersion();
    return info ? { connection, server: { name: info.name, version: info.version, protocolVersion } } : { connection };
  }

  /** The connected client; throws (503) while there is none. */
  connected(): Client {
    if (this.state !== 'connected' || !this.client)
      throw Object.assign(new Error(`The server is not connected (${this.state}${this.error ? `: ${this.error}` : ''}).`), { status: 503 });
    return this.client;
  }

  /** Connects once; on failure the state is `failed` with the reason and the server's stderr. */
  async start(): Promise<void> {
    try {
      await this.open();
      this.setState('connected');
    } catch (error) {
      await this.client?.close().catch(() => undefined);
      this.error = this.failure(error);
      this.setState('failed');
    }
  }

  /**
   * Closes the connection. Over HTTP it first ends the studio's 2025 session (`DELETE`, waiting at
   * most a second), so the server releases it now rather than hold it, and one of its
   * `maxSessions` places, until its idle timeout; a stateless (2026-07-28) connection has none.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.wake?.();
    if (this.state === 'connected') await this.endSession();
    await this.client?.close().catch(() => undefined);
  }

  private async endSession(): Promise<void> {
    const http = this.http;
    if (!http?.sessionId) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      http.terminateSession().catch(() => undefined),
      new Promise((resolve) => (timer = setTimeout(resolve, SESSION_END_MS))),
    ]);
    clearTimeout(timer);
  }

  private async open(): Promise<void> {
    const client = new Client(
      { name: 'mcpflow-studio', version: '0.1.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    client.setRequestHandler(
      'elicitation/create',
      async (request, ctx) => (await this.hooks.elicit(keyed(request.params as ElicitParams, ctx.mcpReq.id))) as never,
    );
    this.client = client;
    const transport = this.transport();
    this.tap(transport, 'send');
    await client.connect(transport);
    this.tap(transport, 'onmessage');
    if (transport instanceof StdioClientTransport) {
      // The SDK keeps its child process to itself; its exit code and signal are what the page shows of a crash.
      const child = (transport as unknown as { _process?: ChildProcess })._process;
      child?.once('exit', (code, signal) => {
        if (this.client === client) this.exit = { code, signal };
      });
      const forget = reapOnExit(() => transport.pid);
      const closed = transport.onclose;
      transport.onclose = () => {
        forget();
        closed?.();
      };
    }
    client.onclose = () => this.lost(client);
    this.error = undefined;
    this.hooks.onConnected?.();
  }

  /** Wraps the transport's `send` (before connecting) or `onmessage` (set by connecting) so `onWire` hears each message. */
  private tap(transport: StdioClientTransport | StreamableHTTPClientTransport, side: 'send' | 'onmessage'): void {
    const wire = this.hooks.onWire;
    const inner = transport[side]?.bind(transport) as ((message: never, ...rest: never[]) => unknown) | undefined;
    if (!wire || !inner) return;
    const direction = side === 'send' ? 'sent' : 'received';
    transport[side] = ((message: never, ...rest: never[]) => {
      wire(direction, message);
      return inner(message, ...rest);
    }) as never;
  }

  private transport(): StdioClientTransport | StreamableHTTPClientTransport {
    if ('url' in this.target) {
      const { url, headers } = withCredentialsAsHeader(this.target.url, this.target.headers ?? {});
      return (this.http = new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    }
    const [command, ...args] = commandWords(this.target.command);
    if (command === undefined)
      throw new Error('The server command is empty: give mcpflow dev --command "<the command that starts your server>".');
    this.stderr = '';
    // The user's environment, as their shell would give the command (the SDK passes only a few variables by default).
    // MCPFLOW_DEV=1: the server runs in dev mode — it records its runs and answers mcpflow/rerun (DESIGN §2.15).
    const env = {
      ...Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      MCPFLOW_DEV: '1',
    };
    const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-STDERR_KEPT);
    });
    return transport;
  }

  /**
   * A request to the server failed. Over HTTP a server that stopped is seen only this way (nothing
   * closes): when the failure is the network's, the studio reconnects as it does when a stdio
   * server's process ends. Returns the error, to be rethrown.
   */
  requestFailed(error: unknown): unknown {
    const client = this.client;
    if (!('url' in this.target) || !isNetworkFailure(error)) return error;
    const why = `${this.targetText} stopped answering (${withUrlsShown(messageOf(error))}); the studio reconnects to it.`;
    if (client && this.state === 'connected') this.lost(client, why);
    return Object.assign(new Error(why), { status: 503 });
  }

  /**
   * The connection closed: unless the studio is closing, reconnect — a URL for as long as the
   * studio runs (waits doubling from 0.5 s to 10 s), a stdio command up to `RESTART_TRIES` times.
   */
  private lost(client: Client, why = 'The server closed the connection.'): void {
    if (this.closing || client !== this.client || this.state === 'reconnecting') return;
    // A stdio server's process told its exit before its pipes closed (`exit` comes before `close`).
    this.error = this.exit === undefined ? why : `The server's process exited (${exitWords(this.exit)}).`;
    this.setState('reconnecting');
    void this.reconnect();
  }

  /** The page's Reconnect: tries now (a wait between tries ends; a `failed` connection tries again). */
  async reconnectNow(): Promise<ServerView> {
    if (this.closing || this.state === 'connected' || this.state === 'connecting') return this.view();
    if (this.state === 'reconnecting') this.wake?.();
    else {
      this.setState('reconnecting');
      void this.reconnect();
    }
    return this.view();
  }

  private async reconnect(): Promise<void> {
    const forever = 'url' in this.target;
    for (let attempt = 0; (forever || attempt < RESTART_TRIES) && !this.closing; attempt += 1) {
      const delay = Math.min(RECONNECT_DELAY_MS * 2 ** Math.min(attempt, 10), RECONNECT_MAX_DELAY_MS);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, delay);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
      if (this.closing) return;
      try {
        await this.open();
        this.setState('connected');
        return;
      } catch (error) {
        await this.client?.close().catch(() => undefined);
        this.error = this.failure(error);
      }
    }
    if (!this.closing) this.setState('failed');
  }

  /** Why connecting failed, in words a user can act on. */
  private failure(error: unknown): string {
    const message = withUrlsShown(error instanceof Error ? error.message : String(error));
    if ('url' in this.target)
      return `${this.targetText} did not answer as an MCP server over Streamable HTTP (${message}). Check the URL (the MCP endpoint, such as http://127.0.0.1:3000/mcp) and that the server runs.`;
    const said = this.stderr.trim() === '' ? '' : ` Its stderr: ${this.stderr.trim()}`;
    return `The server command \`${this.target.command}\` did not start an MCP server on stdio (${message}).${said}`;
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.hooks.onState?.(this.view().connection);
  }
}

function exitWords(exit: { code: number | null; signal: string | null }): string {
  return exit.signal === null ? `exit code ${exit.code}` : `killed by ${exit.signal}`;
}

/** Whether an error is the network's (the server is not there), not an answer of the server. */
function isNetworkFailure(error: unknown): boolean {
  // Errors are read by shape: one made by fetch in another realm is no `instanceof Error` here.
  for (
    let cause = error as { message?: unknown; code?: unknown; cause?: unknown } | undefined;
    typeof cause === 'object' && cause !== null;
    cause = cause.cause as typeof cause
  ) {
    if (/fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|other side closed/i.test(`${String(cause.message)} ${String(cause.code)}`))
      return true;
  }
  return false;
}

function messageOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : String(error);
}
