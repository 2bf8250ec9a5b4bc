import { randomUUID } from 'node:crypto';
import { cancelWhenAbandoned, type MessageReceiver } from './abandoned-requests';
import { isInitializeRequest } from './json-rpc-messages';
import { ServingErrorCodes } from './json-rpc-error-response';
import type { RequestBody } from './request-body';
import type { SessionEventStore } from './session-event-store';
import { SessionMessages } from './session-messages';
import type { ClosableSession, SessionPool } from './session-pool';

/** A 2025-era session's transport, as both lines' Streamable HTTP server transports are. */
export interface SessionTransport extends ClosableSession, MessageReceiver {
  readonly sessionId?: string;
  onclose?: () => void;
}

/** What a session's transport is built with, on either line. */
export interface SessionTransportOptions {
  sessionIdGenerator: () => string;
  onsessioninitialized: (sessionId: string) => void;
  maxRequestBodySize: number;
  /** Where the session's SSE events are kept for a reconnecting client; none without resumption. */
  eventStore?: SessionEventStore;
  /** The SSE `retry` the session's streams carry: how long a client waits before it reconnects. */
  retryInterval?: number;
}

/** The `retry` a resumable session's SSE streams carry, in milliseconds. */
const RECONNECT_AFTER_MS = 1000;

/** One request to a sessionful endpoint, in the line's own request and response types. */
export interface SessionExchange<T, R> {
  /** The request's `Mcp-Session-Id`, if it has one. */
  readonly sessionId: string | undefined;
  readonly method: string | undefined;
  /** Reads a POST's body (called once, for POSTs only). */
  body(): Promise<RequestBody>;
  /** Aborted when the client goes away before the response is complete. */
  readonly abandoned: AbortSignal;
  /** Answers with a JSON-RPC error that no request id can be given for. */
  refuse(status: number, code: number, message: string): R;
  /** Builds a server from the factory and connects it to a new session's transport. */
  connect(transport: T): Promise<void>;
  /** Hands the request to a session's transport, with its body already read (a POST's). */
  forward(transport: T, body: unknown): Promise<R>;
}

/**
 * Serves 2025-era clients with sessions, on either line: a server from the factory and a transport
 * per session, routed by `Mcp-Session-Id`, held in a bounded {@link SessionPool}. Sessions are what
 * lets a 2025 client answer a server's request (elicitation, sampling) in the middle of a workflow.
 * Each session keeps its SSE events in its own store (when there is one), so a client whose stream
 * dropped reconnects with `Last-Event-ID` and gets what it missed.
 *
 * A POST's body is read before anything else is decided: a session is reserved only for a
 * complete, valid `initialize` (a client slow to send its body holds no place), and the requests a
 * POST carries are cancelled if the client abandons it.
 *
 * @example
 * ```ts
 * const endpoint = new SessionEndpoint(pool, (options) => new StreamableHTTPServerTransport(options), 4 * 1024 * 1024);
 * await endpoint.serve({ sessionId, method, body, abandoned, refuse, connect, forward });
 * ```
 */
export class SessionEndpoint<T extends SessionTransport> {
  constructor(
    private readonly sessions: SessionPool<T>,
    private readonly openTransport: (options: SessionTransportOptions) => T,
    private readonly maxRequestBodySize: number,
    private readonly eventStore: false | (() => SessionEventStore) = false,
  ) {}

  /** Serves one 2025-era request: to its session, or (an `initialize` without one) by opening a session. */
  async serve<R>(exchange: SessionExchange<T, R>): Promise<R> {
    const { sessionId } = exchange;
    if (sessionId === undefined && exchange.method !== 'POST')
      return exchange.refuse(400, ServingErrorCodes.Refused, SessionMessages.idRequired);
    let body: unknown;
    if (exchange.method === 'POST') {
      const read = await exchange.body();
      if (read.kind === 'too-large')
        return exchange.refuse(413, ServingErrorCodes.Refused, SessionMessages.tooLarge(this.maxRequestBodySize));
      if (read.kind === 'invalid') return exchange.refuse(400, ServingErrorCodes.ParseError, SessionMessages.parseError);
      body = read.value;
    }
    // The client left while its body was read: nothing of it runs.
    if (exchange.abandoned.aborted) return exchange.refuse(400, ServingErrorCodes.Refused, 'Client closed the request');
    if (sessionId !== undefined) {
      const transport = this.sessions.get(sessionId);
      if (!transport) return exchange.refuse(404, ServingErrorCodes.SessionNotFound, SessionMessages.notFound(sessionId));
      cancelWhenAbandoned(transport, body, exchange.abandoned);
      return exchange.forward(transport, body);
    }
    if (!isInitializeRequest(body)) return exchange.refuse(400, ServingErrorCodes.Refused, SessionMessages.idRequired);
    if (!this.sessions.reserve()) return exchange.refuse(503, ServingErrorCodes.Refused, SessionMessages.tooMany(this.sessions.capacity));
    return this.open(exchange, body);
  }

  /** An `initialize` opens a session; one the transport refuses is dropped. */
  private async open<R>(exchange: SessionExchange<T, R>, body: unknown): Promise<R> {
    let admitted = false;
    const transport: T = this.openTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        admitted = true;
        this.sessions.admit(id, transport);
      },
      maxRequestBodySize: this.maxRequestBodySize,
      ...(this.eventStore && { eventStore: this.eventStore(), retryInterval: RECONNECT_AFTER_MS }),
    });
    // Set before connect(): the server chains its own close handling after this one.
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.forget(transport.sessionId);
    };
    try {
      await exchange.connect(transport);
      return await exchange.forward(transport, body);
    } finally {
      if (!admitted) {
        this.sessions.release();
        await transport.close();
      }
    }
  }
}
