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
import type { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import type { HttpServing, HttpServingOptions } from '@mcpflow/core/v1';

/** An SDK line: 1.x (`@modelcontextprotocol/sdk`) or 2.x (`@modelcontextprotocol/server`). */
export type SdkLineName = 'v1' | 'v2';

/** How a command line asks an example to serve. */
export interface ServeRequest {
  sdk: SdkLineName;
  transport: { kind: 'stdio' } | { kind: 'http'; options: HttpServingOptions };
}

/** Reads `--sdk`, `--http`, `--port`, `--max-sessions` and `--session-idle-timeout` (or `MCP_SDK`, `MCP_TRANSPORT`, `PORT`). */
export function readServeRequest(argv = process.argv.slice(2), env = process.env): ServeRequest {
  const value = (name: string): string | undefined => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const number = (name: string): number | undefined => (value(name) === undefined ? undefined : Number(value(name)));
  const sdk = value('--sdk') ?? env.MCP_SDK ?? '1';
  if (!['1', '2', 'v1', 'v2'].includes(sdk)) throw new Error(`--sdk ${sdk}: the SDK line is 1 (@modelcontextprotocol/sdk) or 2 (@modelcontextprotocol/server)`);
  const http = argv.includes('--http') || env.MCP_TRANSPORT === 'http';
  return {
    sdk: sdk.endsWith('2') ? 'v2' : 'v1',
    transport: http
      ? {
          kind: 'http',
          options: {
            port: number('--port') ?? Number(env.PORT ?? 3000),
            maxSessions: number('--max-sessions'),
            sessionIdleTimeoutMs: number('--session-idle-timeout'),
          },
        }
      : { kind: 'stdio' },
  };
}

/** One line's serving helpers, bound to an example's server factory. */
interface LineServing {
  /** What the line serves, for the banner. */
  protocols: { stdio: string; http: string };
  stdio(): Promise<unknown>;
  http(options: HttpServingOptions): Promise<HttpServing>;
}

async function loadLine(sdk: SdkLineName, create: (sdk: SdkLineName) => McpServerV1): Promise<LineServing> {
  if (sdk === 'v2') {
    const { serveHttp, serveStdio } = await import('@mcpflow/core/v2');
    // The example built its server from the line it was given: on 'v2' that is a 2.x server.
    const factory = () => create('v2') as unknown as McpServerV2;
    return {
      protocols: { stdio: 'SDK 2.x: MCP 2026-07-28 and 2025', http: 'SDK 2.x: MCP 2026-07-28 stateless, 2025 clients in sessions' },
      stdio: () => serveStdio(factory),
      http: (options) => serveHttp(factory, options),
    };
  }
  const { serveHttp, serveStdio } = await import('@mcpflow/core/v1');
  const factory = () => create('v1');
  return {
    protocols: { stdio: 'SDK 1.x: MCP 2025-11-25', http: 'SDK 1.x: MCP 2025-11-25, a session per client' },
    stdio: () => serveStdio(factory),
    http: (options) => serveHttp(factory, options),
  };
}

async function serve(name: string, create: (sdk: SdkLineName) => McpServerV1, request: ServeRequest): Promise<void> {
  const line = await loadLine(request.sdk, create);
  if (request.transport.kind === 'stdio') {
    await line.stdio();
    console.error(`${name} serving on stdio (${line.protocols.stdio})`);
    return;
  }
  const serving = await line.http(request.transport.options);
  console.error(`${name} listening on ${serving.url} (${line.protocols.http})`);
  const stop = () => void serving.close().then(() => process.exit(0));
  process.once('SIGINT', stop).once('SIGTERM', stop);
}

/**
 * The entry point of an example: serve what `create` builds on the line the command line picks
 * (a server per connection, session or request), or print the error and exit 1. `create` is given
 * the line and must build its server from that line's `WorkflowServer`.
 */
export function main(name: string, create: (sdk: SdkLineName) => McpServerV1): void {
  Promise.resolve()
    .then(() => serve(name, create, readServeRequest()))
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
