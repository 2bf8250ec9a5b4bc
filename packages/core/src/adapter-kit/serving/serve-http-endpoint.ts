import type { IncomingMessage, ServerResponse } from 'node:http';
import { reportServingFailure } from './failure-report';
import { firstServer } from './first-server';
import type { HttpServing } from './http-serving';
import { resolveHttpServingOptions, type HttpServingOptions, type ResolvedHttpServingOptions } from './http-serving-options';
import { handOverTaskRounds } from '../tasks/hand-over-rounds';
import { listenHttp } from './listen';
import { SessionEndpoint, type SessionTransport, type SessionTransportOptions } from './session-endpoint';
import { SessionPool } from './session-pool';

/** What a line's `serveHttp` gives {@link serveHttpEndpoint}. */
export interface HttpServingLine<T extends SessionTransport, Exposed extends object> {
  /** Builds one server from the factory, for the check before listening. */
  firstServer(): unknown;
  /** The line's Streamable HTTP transport for a 2025-era session. */
  openTransport(options: SessionTransportOptions): T;
  /** The line's request handling, over the sessions the kit holds. */
  handling(sessions: SessionEndpoint<T>, options: ResolvedHttpServingOptions): Promise<HttpHandling<Exposed>> | HttpHandling<Exposed>;
}

/** A line's handling of the requests that passed the path, `Host` and `Origin` checks. */
export interface HttpHandling<Exposed extends object> {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Releases what the handling holds besides the sessions. */
  close?(): Promise<void>;
  /** What the line adds to the handle `serveHttp` returns (2.x: `notify`). */
  expose?: Exposed;
}

/**
 * `serveHttp`'s policy, for both lines: the options resolved and checked; one server built and
 * validated before listening; then the line's handling behind the path, `Host`/`Origin` guards,
 * with bounded sessions and request time. Whatever stops the start (an option out of range, a
 * broken server, a port in use) is reported once through `onerror` (stderr by default), then
 * rejects: the caller only sets the exit code.
 *
 * @example
 * ```ts
 * return serveHttpEndpoint(options, { firstServer: () => factory(), openTransport, handling: (sessions) => ({ handle }) });
 * ```
 */
export async function serveHttpEndpoint<T extends SessionTransport, Exposed extends object = object>(
  options: HttpServingOptions,
  line: HttpServingLine<T, Exposed>,
): Promise<HttpServing & Exposed> {
  let onerror = typeof options?.onerror === 'function' ? options.onerror : reportServingFailure;
  try {
    const resolved = resolveHttpServingOptions(options);
    onerror = resolved.onerror;
    await firstServer(() => line.firstServer());
    return await listening(resolved, line);
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    throw error;
  }
}

/** The endpoint of a checked start: the line's handling behind bounded sessions, listening. */
async function listening<T extends SessionTransport, Exposed extends object>(
  resolved: ResolvedHttpServingOptions,
  line: HttpServingLine<T, Exposed>,
): Promise<HttpServing & Exposed> {
  const pool = new SessionPool<T>({
    maxSessions: resolved.maxSessions,
    idleTimeoutMs: resolved.sessionIdleTimeoutMs,
    onerror: resolved.onerror,
  });
  const handling = await line.handling(
    new SessionEndpoint(pool, (transportOptions) => line.openTransport(transportOptions), resolved.maxRequestBodySize, resolved.eventStore),
    resolved,
  );
  const serving = await listenHttp(
    {
      handle: (request, response) => handling.handle(request, response),
      sessions: pool,
      // Rounds of shared task stores go to other instances first; then the line's own handling closes.
      close: async () => {
        await handOverTaskRounds();
        await handling.close?.();
      },
    },
    resolved,
  );
  return Object.assign(serving, handling.expose) as HttpServing & Exposed;
}
