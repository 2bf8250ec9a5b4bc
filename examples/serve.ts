/**
 * How the examples serve, through mcpflow's serving helpers (`serveStdio` / `serveHttp` from
 * `@mcpflow/core/v1` or `@mcpflow/core/v2`): over stdio by default, or over HTTP on 127.0.0.1 with
 *
 *   --http [--port N] [--max-sessions N] [--session-idle-timeout MS]
 *
 * (or `MCP_TRANSPORT=http PORT=N`). An example chooses its SDK line by calling `mainV1` or
 * `mainV2`; only that line's SDK is loaded. Where it serves is printed on stderr (stdout is the
 * stdio protocol channel).
 */
import type { HttpServing, HttpServingOptions, McpServerFactory as McpServerFactoryV1 } from '@mcpflow/core/v1';
import type { McpServerFactory as McpServerFactoryV2 } from '@modelcontextprotocol/server';

/** How a command line asks an example to serve. */
export type ServeRequest = { transport: 'stdio' } | { transport: 'http'; options: HttpServingOptions };

/** Reads `--http`, `--port`, `--max-sessions` and `--session-idle-timeout` (or `MCP_TRANSPORT`/`PORT`). */
export function readServeRequest(argv = process.argv.slice(2), env = process.env): ServeRequest {
  if (!argv.includes('--http') && env.MCP_TRANSPORT !== 'http') return { transport: 'stdio' };
  const flag = (name: string): number | undefined => {
    const at = argv.indexOf(name);
    return at >= 0 ? Number(argv[at + 1]) : undefined;
  };
  return {
    transport: 'http',
    options: {
      port: flag('--port') ?? Number(env.PORT ?? 3000),
      maxSessions: flag('--max-sessions'),
      sessionIdleTimeoutMs: flag('--session-idle-timeout'),
    },
  };
}

/** One SDK line's serving helpers, bound to an example's server factory. */
interface LineServing {
  /** What the line serves, for the banner. */
  protocols: { stdio: string; http: string };
  stdio(): Promise<unknown>;
  http(options: HttpServingOptions): Promise<HttpServing>;
}

async function serve(name: string, line: LineServing, request: ServeRequest): Promise<void> {
  if (request.transport === 'stdio') {
    await line.stdio();
    console.error(`${name} serving on stdio (${line.protocols.stdio})`);
    return;
  }
  const serving = await line.http(request.options);
  console.error(`${name} listening on ${serving.url} (${line.protocols.http})`);
  const stop = () => void serving.close().then(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

function run(name: string, line: () => Promise<LineServing>): void {
  line()
    .then((serving) => serve(name, serving, readServeRequest()))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}

/** The entry point of an example on SDK 1.x (`@modelcontextprotocol/sdk`): serve, or print the error and exit 1. */
export function mainV1(name: string, create: McpServerFactoryV1): void {
  run(name, async () => {
    const { serveHttp, serveStdio } = await import('@mcpflow/core/v1');
    return {
      protocols: { stdio: 'MCP 2025-11-25', http: 'MCP 2025-11-25, a session per client' },
      stdio: () => serveStdio(create),
      http: (options) => serveHttp(create, options),
    };
  });
}

/** The entry point of an example on SDK 2.x (`@modelcontextprotocol/server`): serve, or print the error and exit 1. */
export function mainV2(name: string, create: McpServerFactoryV2): void {
  run(name, async () => {
    const { serveHttp, serveStdio } = await import('@mcpflow/core/v2');
    return {
      protocols: { stdio: 'MCP 2026-07-28 and 2025', http: 'MCP 2026-07-28 stateless, 2025 clients in sessions' },
      stdio: () => serveStdio(create),
      http: (options) => serveHttp(create, options),
    };
  });
}
