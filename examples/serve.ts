/**
 * How the examples serve, through mcpflow's serving helpers (`serveStdio` / `serveHttp` from
 * `@mcpflow/core/v1` or `@mcpflow/core/v2`). The command line picks the SDK line and the transport:
 *
 *   node examples/dist/code-review/server.js                  # SDK 1.x, stdio
 *   node examples/dist/code-review/server.js --sdk 2          # SDK 2.x, stdio (or MCP_SDK=2)
 *   node examples/dist/code-review/server.js --http [--port N] [--max-sessions N] [--session-idle-timeout MS]
 *                                                             # HTTP on 127.0.0.1 (or MCP_TRANSPORT=http PORT=N)
 *
 * Only the chosen line's SDK is loaded. Where it serves is printed on stderr (stdout is the stdio
 * protocol channel).
 */
import type { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import type { HttpServing, HttpServingOptions, WorkflowServer } from '@mcpflow/core/v1';
import { loadSdkLine, sdkLineName, type SdkLine } from './sdk-line';

/** How a command line asks an example to serve. */
export type ServeRequest = { kind: 'stdio' } | { kind: 'http'; options: HttpServingOptions };

/** Reads `--http`, `--port`, `--max-sessions` and `--session-idle-timeout` (or `MCP_TRANSPORT`, `PORT`). */
export function readServeRequest(argv = process.argv.slice(2), env = process.env): ServeRequest {
  if (!argv.includes('--http') && env.MCP_TRANSPORT !== 'http') return { kind: 'stdio' };
  const number = (name: string): number | undefined => {
    const at = argv.indexOf(name);
    return at >= 0 ? Number(argv[at + 1]) : undefined;
  };
  return {
    kind: 'http',
    options: {
      port: number('--port') ?? Number(env.PORT ?? 3000),
      maxSessions: number('--max-sessions'),
      sessionIdleTimeoutMs: number('--session-idle-timeout'),
    },
  };
}

/** One line's serving helpers, bound to an example's server factory. */
interface LineServing {
  /** What the line serves over HTTP, for the banner. */
  protocols: string;
  stdio(): Promise<unknown>;
  http(options: HttpServingOptions): Promise<HttpServing>;
}

async function loadLine(line: SdkLine, create: (line: SdkLine) => WorkflowServer): Promise<LineServing> {
  if (line.name === 'v2') {
    const { serveHttp, serveStdio } = await import('@mcpflow/core/v2');
    // The example built its server from the line it was given: on 2.x, a 2.x WorkflowServer.
    const factory = () => create(line) as unknown as McpServerV2;
    return {
      protocols: 'SDK 2.x: MCP 2026-07-28 stateless, 2025 clients in sessions',
      stdio: () => serveStdio(factory),
      http: (options) => serveHttp(factory, options),
    };
  }
  const { serveHttp, serveStdio } = await import('@mcpflow/core/v1');
  const factory = () => create(line);
  return {
    protocols: 'SDK 1.x: MCP 2025-11-25, a session per client',
    stdio: () => serveStdio(factory),
    http: (options) => serveHttp(factory, options),
  };
}

async function serve(name: string, create: (line: SdkLine) => WorkflowServer, request: ServeRequest): Promise<void> {
  const line = await loadLine(loadSdkLine(sdkLineName()), create);
  if (request.kind === 'stdio') {
    await line.stdio();
    console.error(`${name} serving MCP over stdio`);
    return;
  }
  const serving = await line.http(request.options);
  console.error(`${name} listening on ${serving.url} (${line.protocols})`);
  const stop = () => void serving.close().then(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

/**
 * The entry point of an example: serve what `create` builds on the line the command line picks
 * (a server per connection, session or request), or print the error and exit 1. `create` is given
 * the line and must build its server from that line's `WorkflowServer`.
 */
export function main(name: string, create: (line: SdkLine) => WorkflowServer): void {
  Promise.resolve()
    .then(() => serve(name, create, readServeRequest()))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
