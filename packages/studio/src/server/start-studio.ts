import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerView } from './api-types';
import { LastListing } from './last-listing';
import { DEFAULT_PAGE_DIR } from './page-assets';
import { isLoopbackAddress, newToken } from './request-guard';
import { RunBook } from './run-book';
import { RunHistory } from './run-history';
import { ServerConnection, type StudioTarget } from './server-connection';
import { studioHandler } from './studio-http';
import { listWorkflows } from './workflow-list';

/** Options of `startStudio` (what `mcpflow dev` passes on). */
export type StudioOptions = StudioTarget & {
  /** The port the page is served on; default: a free one. */
  readonly port?: number;
  /** The address the page listens on (and only there); default `127.0.0.1`. */
  readonly host?: string;
  /** Serve on a `host` that is not loopback (and answer any `Host`): without it such a `host` is refused. */
  readonly allowRemote?: boolean;
  /** Where the built page is; default: the package's `dist/page`. */
  readonly pageDir?: string;
  /** Told each change of the connection to the server (`mcpflow dev` prints it). */
  readonly onConnection?: (connection: ServerView['connection']) => void;
  /** `--history <file>`: the runs are kept in this file across studio restarts (default: only while the studio runs). */
  readonly history?: string;
  /** `--history-runs <n>`: at most this many runs are kept, the oldest evicted first; default 200. */
  readonly historyRuns?: number;
  /** `--history-bytes <n>`: at most this many bytes of runs (what they hold on the heap: `StudioRun.bytes`) are kept, the oldest evicted first; default 32 MiB. */
  readonly historyBytes?: number;
  /** Told a problem the studio works around (a `--history` file it cannot read or write); default: stderr. */
  readonly onWarning?: (message: string) => void;
};

/** A running studio. */
export interface Studio {
  /** The page's URL, token included: `http://127.0.0.1:<port>/?token=<token>`. */
  readonly url: string;
  readonly token: string;
  readonly port: number;
  /** The connection to the server, as `GET /api/server` shows it. */
  server(): ServerView;
  /** Stops serving the page and closes the connection (a stdio server's process ends). */
  close(): Promise<void>;
}

/**
 * Starts the studio (DESIGN §2.15): connects to the server — a command started over stdio, or a
 * Streamable HTTP URL — and serves the page and its API on `host:port`, every request needing the
 * token and a loopback `Host`. Resolves once the page listens and the first connection attempt
 * ended (`connected`, or `failed` with the reason and the server's stderr: the page shows it).
 *
 * @example
 * ```ts
 * const studio = await startStudio({ command: 'node dist/server.js' });
 * console.log(`mcpflow studio: ${studio.url}`);
 * ```
 */
export async function startStudio(options: StudioOptions): Promise<Studio> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopbackAddress(host) && !options.allowRemote)
    throw new Error(
      `The studio listens only on a loopback address unless told otherwise: --host ${host} would let anyone on the network who learns the token drive your server. Add --allow-remote to do it anyway.`,
    );
  const token = newToken();
  const history = new RunHistory({
    maxRuns: options.historyRuns,
    maxBytes: options.historyBytes,
    file: options.history,
    warn: options.onWarning ?? ((message) => process.stderr.write(`mcpflow studio: ${message}\n`)),
  });
  const target: StudioTarget =
    'url' in options && options.url !== undefined
      ? { url: options.url, ...(options.headers === undefined ? {} : { headers: options.headers }) }
      : { command: (options as { command: string }).command };
  const connection: ServerConnection = new ServerConnection(target, {
    elicit: (params) => runs.elicit(params),
    onWire: (direction, message) => runs.wire.record(direction, message),
    onState: options.onConnection,
    onConnected: () => listings.forget(),
  });
  const listings = new LastListing(() =>
    listWorkflows(connection.connected()).catch((error: unknown) => {
      throw connection.requestFailed(error);
    }),
  );
  const runs: RunBook = new RunBook(
    history,
    () => connection.connected(),
    (workflow) => listings.naming(workflow),
    (error) => connection.requestFailed(error),
  );
  const http = createServer(
    studioHandler({
      token,
      anyHost: !isLoopbackAddress(host),
      pageDir: options.pageDir ?? DEFAULT_PAGE_DIR,
      connection,
      runs,
      history,
      listing: () => listings.fresh(),
      cancelTask: (taskId) => runs.cancelTask(taskId),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  await connection.start();
  return {
    url: `http://${urlHost(host)}:${port}/?token=${token}`,
    token,
    port,
    server: () => connection.view(),
    close: async () => {
      http.closeAllConnections();
      await Promise.all([connection.close(), new Promise((resolve) => http.close(resolve))]);
      await history.flush();
    },
  };
}

/** The host of the printed URL: a wildcard address (`0.0.0.0`, `::`) is not one a browser can open, 127.0.0.1 is. */
function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::' || host === '[::]') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
