import { InvalidServingOptionError } from './errors/invalid-serving-option-error';
import { UnguardedBindingError } from './errors/unguarded-binding-error';
import { reportServingFailure } from './failure-report';
import { LOOPBACK_HOSTNAMES, LOOPBACK_ORIGINS, isLoopbackHost } from './loopback';
import { memoryEventStore } from './memory-event-store';
import type { SessionEventStore } from './session-event-store';

/**
 * How `serveHttp` (from `@mcpflow/core/v1` or `@mcpflow/core/v2`) serves: where it listens and the
 * limits it enforces. Every field is optional; the defaults are safe for a local server.
 *
 * @example
 * await serveHttp(createServer, { port: 0 });                                        // 127.0.0.1, a free port
 * await serveHttp(createServer, { host: '0.0.0.0', allowedHosts: ['mcp.example.com'] }); // reachable from others
 */
export interface HttpServingOptions {
  /** The interface to listen on. Default `'127.0.0.1'`: only this machine can connect. */
  host?: string;
  /** The port; `0` picks a free one (read it from the returned `url`). Default `3000`. */
  port?: number;
  /** The path of the MCP endpoint; any other path is answered 404. Default `'/mcp'`. */
  path?: string;
  /**
   * Host names (without port; IPv6 in brackets) a request's `Host` header may name; any other is
   * refused with 403, which is what stops DNS rebinding. Default for a loopback `host`:
   * `localhost`, `127.0.0.1`, `[::1]`. Required for any other `host`.
   */
  allowedHosts?: string[];
  /**
   * What a browser request's `Origin` may be (requests without `Origin`, which is what non-browser
   * clients send, pass): an origin (`https://app.example:8443`) is compared on scheme, host and
   * port; an origin with port `*` (`http://localhost:*`) on scheme and host, any port; a host name
   * alone admits that host on any scheme and port. Default: `allowedHosts` when you set them; else
   * `http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*` (a page served from this machine
   * over HTTP, on any port).
   */
  allowedOrigins?: string[];
  /**
   * The most 2025-era sessions held at once; an `initialize` beyond it is answered 503 until a
   * session ends or idles out. Default `100`.
   */
  maxSessions?: number;
  /**
   * A session with no request in progress for this long is closed and its server released.
   * Default `600000` (10 minutes).
   */
  sessionIdleTimeoutMs?: number;
  /** The largest request body accepted; a larger one is answered 413. Default 4 MiB (the SDK's bound). */
  maxRequestBodySize?: number;
  /**
   * The time a client has to send a whole request (headers and body), from its first byte; a slower
   * one is cut off within a second of it. Default `30000`.
   */
  requestTimeoutMs?: number;
  /**
   * The most TCP connections open at once (each open notification stream holds one); a connection
   * beyond it is closed at once, unanswered. Default `1000`.
   */
  maxConnections?: number;
  /**
   * Where each 2025 session keeps its SSE events, so that a client whose stream dropped reconnects
   * with `Last-Event-ID` and loses nothing: a function called once per session that returns the
   * SDK's `EventStore` (either line's fits). Default: {@link memoryEventStore} with its bounds (the
   * session's last 1000 events, at most 1 MiB), gone with the session. `false`: no store, no
   * resumption (and no priming event on a session's SSE streams).
   */
  eventStore?: false | (() => SessionEventStore);
  /**
   * Where failures that no client sees are reported: a server from the factory that cannot serve (at
   * start, `serveHttp` then rejects with the error; later, per request or session), a transport's
   * error. Default: stderr (never stdout), a broken workflow with its code, workflow, step and fix.
   */
  onerror?: (error: Error) => void;
}

/** {@link HttpServingOptions} with every default filled in and every value checked. */
export type ResolvedHttpServingOptions = Required<HttpServingOptions>;

/** The SDK's own default body bound (both lines): 4 MiB. */
export const DEFAULT_MAX_REQUEST_BODY_SIZE = 4 * 1024 * 1024;

/**
 * Fills in the defaults of {@link HttpServingOptions} and refuses values that cannot work.
 *
 * @example
 * resolveHttpServingOptions({ port: 0 }).allowedHosts;   // ['localhost', '127.0.0.1', '[::1]']
 * resolveHttpServingOptions({ port: 0 }).allowedOrigins; // ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*']
 */
export function resolveHttpServingOptions(options: HttpServingOptions = {}): ResolvedHttpServingOptions {
  const host = options.host ?? '127.0.0.1';
  const allowedHosts = options.allowedHosts ?? (isLoopbackHost(host) ? [...LOOPBACK_HOSTNAMES] : undefined);
  if (!allowedHosts) throw new UnguardedBindingError(host);
  const resolved: ResolvedHttpServingOptions = {
    host,
    port: options.port ?? 3000,
    path: options.path ?? '/mcp',
    allowedHosts,
    allowedOrigins: options.allowedOrigins ?? (options.allowedHosts ? allowedHosts : [...LOOPBACK_ORIGINS]),
    maxSessions: options.maxSessions ?? 100,
    sessionIdleTimeoutMs: options.sessionIdleTimeoutMs ?? 10 * 60 * 1000,
    maxRequestBodySize: options.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    maxConnections: options.maxConnections ?? 1000,
    eventStore: options.eventStore ?? (() => memoryEventStore()),
    onerror: options.onerror ?? reportServingFailure,
  };
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535) {
    throw new InvalidServingOptionError('port', resolved.port, 'an integer from 0 to 65535 (0 picks a free port)');
  }
  if (!resolved.path.startsWith('/')) throw new InvalidServingOptionError('path', resolved.path, "a path starting with '/', e.g. '/mcp'");
  for (const name of ['maxSessions', 'sessionIdleTimeoutMs', 'maxRequestBodySize', 'requestTimeoutMs', 'maxConnections'] as const) {
    const value = resolved[name];
    if (!Number.isInteger(value) || value < 1) throw new InvalidServingOptionError(name, value, 'a positive integer');
  }
  if (allowedHosts.length === 0) throw new InvalidServingOptionError('allowedHosts', allowedHosts, 'at least one host name clients use');
  return resolved;
}
