/**
 * The test matrix: run an end-to-end test once per SDK line and transport, each line with its own
 * `WorkflowServer`, its own `ResourceTemplate` and its own real `Client`.
 *
 *   describe.each(MATRIX)('$label', ({ line, transport }) => {
 *     test('…', async () => {
 *       const client = await line.connect(() => {
 *         const server = new line.WorkflowServer({ name: 'demo', version: '1.0.0' });
 *         server.registerTool('add', { inputSchema: { a: z.number() } }, async ({ a }) => …);
 *         return server.use(MyWorkflow);
 *       }, { transport });
 *       const result = await client.getPrompt({ name: 'my_workflow', arguments: { … } });
 *       await client.close();                       // also stops an HTTP listener
 *     });
 *   });
 *
 * Lines: `v1` — `@mcpflow/core/v1` on `@modelcontextprotocol/sdk` 1.x; `v2` — `@mcpflow/core/v2` on
 * `@modelcontextprotocol/server` 2.x. Transports:
 * - `memory`: the line's `InMemoryTransport` pair (2025 protocol);
 * - `http`: Streamable HTTP on 127.0.0.1 (port 0), a session per client (2025 protocol);
 * - `stateless` (v2 only): protocol 2026-07-28 through `createMcpHandler`, a server from the factory
 *   per request, the 2.x client pinned with `versionNegotiation: { mode: { pin: '2026-07-28' } }`.
 * A subprocess over stdio: `line.connectStdio(script, { transport })` over `STDIO_MATRIX` (the
 * script takes `--sdk 1|2`, as the examples do; on 2.x both the 2025 and the 2026-07-28 protocol).
 * The factory is called once per connection (`memory`), per session (`http`) or per request
 * (`stateless`): keep what a test observes (call counts, seen values) outside it.
 *
 * Servers are typed as the 1.x `WorkflowServer` so one test body compiles for both; the
 * registration forms used must exist on both lines (`registerTool`, `registerResource`,
 * `registerPrompt`; raw-shape or `z.object` schemas). Where a handler reads its request context,
 * use `line.signalOf(context)` (1.x `extra.signal`, 2.x `ctx.mcpReq.signal`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as HttpClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport as InMemoryTransportV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceTemplate as ResourceTemplateV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport as HttpServerTransportV1 } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { ElicitRequestSchema as ElicitRequestSchemaV1, McpError } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpClientTransportV2, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import {
  InMemoryTransport as InMemoryTransportV2,
  ResourceTemplate as ResourceTemplateV2,
  createMcpHandler,
  type McpServer as McpServerV2,
} from '@modelcontextprotocol/server';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { WorkflowServer as WorkflowServerV1 } from '@mcpflow/core/v1';
import { WorkflowServer as WorkflowServerV2 } from '@mcpflow/core/v2';

export type TransportName = 'memory' | 'http' | 'stateless';

/** A client of either line, as the 1.x `Client` types it (the 2.x one has the same calls). */
export type TestClient = ClientV1;

/** What a test builds a server with: the line's `WorkflowServer`, typed as 1.x's. */
export type TestServer = WorkflowServerV1;

export interface ConnectOptions {
  readonly transport?: TransportName;
  /** Passed to the server as a verified token would be (`req.auth` over HTTP). */
  readonly authInfo?: AuthInfo;
  /** Declares the elicitation capability and answers each question (`elicitation/create`) with this. */
  readonly elicit?: Elicit;
}

/** How a test's client answers a question: accept with content, decline or cancel. */
export type Elicit = (params: {
  message: string;
}) => { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' | 'cancel' };

/** One SDK line under test. */
export interface Line {
  readonly name: 'v1' | 'v2';
  readonly WorkflowServer: typeof WorkflowServerV1;
  readonly ResourceTemplate: typeof ResourceTemplateV1;
  /** The class the line's client rejects with for a JSON-RPC error (code, message). */
  readonly ProtocolError: abstract new (...args: never[]) => Error & { code: number };
  readonly transports: readonly TransportName[];
  /** A connected client of this line; `close()` closes it and whatever serves it. */
  connect(factory: () => TestServer, options?: ConnectOptions): Promise<TestClient>;
  /**
   * A client of this line to a server script run as a subprocess over stdio with `--sdk <line>`
   * (as the examples take it). `stateless` pins the 2.x client to 2026-07-28.
   */
  connectStdio(script: string, options?: { transport?: 'stdio' | 'stateless' }): Promise<TestClient>;
  /** The stdio transports this line's examples serve: the 2025 protocol, and on 2.x also 2026-07-28. */
  readonly stdioTransports: readonly ('stdio' | 'stateless')[];
  /** The signal of a tool or resource handler's request context. */
  signalOf(context: unknown): AbortSignal;
  /** The verified token a tool or resource handler's request context carries, if any. */
  authOf(context: unknown): AuthInfo | undefined;
  /** The request `_meta` a tool or resource handler's context carries (1.x `extra._meta`, 2.x `ctx.mcpReq._meta`). */
  metaOf(context: unknown): Record<string, unknown> | undefined;
}

const v1: Line = {
  name: 'v1',
  WorkflowServer: WorkflowServerV1,
  ResourceTemplate: ResourceTemplateV1,
  ProtocolError: McpError,
  transports: ['memory', 'http'],
  async connect(factory, { transport = 'memory', authInfo, elicit } = {}) {
    const client = new ClientV1({ name: 'mcpflow-test', version: '1.0.0' }, { capabilities: elicit ? { elicitation: {} } : {} });
    if (elicit) client.setRequestHandler(ElicitRequestSchemaV1, (request) => elicit(request.params));
    if (transport === 'memory') {
      const [clientTransport, serverTransport] = InMemoryTransportV1.createLinkedPair();
      if (authInfo) sendWithAuth(clientTransport, authInfo);
      await factory().connect(serverTransport);
      await client.connect(clientTransport);
      return client;
    }
    if (transport !== 'http') throw new Error(`SDK 1.x has no ${transport} transport`);
    const http = await listen(
      authInfo,
      sessionEndpoint(async () => {
        const created: HttpServerTransportV1 = new HttpServerTransportV1({ sessionIdGenerator: () => randomUUID() });
        await factory().connect(created);
        return created;
      }),
    );
    await client.connect(new HttpClientTransportV1(http.url));
    return closingAlso(client, http.close);
  },
  stdioTransports: ['stdio'],
  async connectStdio(script) {
    const client = new ClientV1({ name: 'mcpflow-test', version: '1.0.0' });
    await client.connect(new StdioClientTransportV1({ command: process.execPath, args: [script, '--sdk', '1'], stderr: 'pipe' }));
    return client;
  },
  signalOf: (context) => (context as { signal: AbortSignal }).signal,
  authOf: (context) => (context as { authInfo?: AuthInfo }).authInfo,
  metaOf: (context) => (context as { _meta?: Record<string, unknown> })._meta,
};

export const v2: Line = {
  name: 'v2',
  WorkflowServer: WorkflowServerV2 as unknown as typeof WorkflowServerV1,
  ResourceTemplate: ResourceTemplateV2 as unknown as typeof ResourceTemplateV1,
  ProtocolError,
  transports: ['memory', 'http', 'stateless'],
  async connect(factory, { transport = 'memory', authInfo, elicit } = {}) {
    const v2Factory = factory as unknown as () => McpServerV2;
    const client = new ClientV2(
      { name: 'mcpflow-test', version: '1.0.0' },
      {
        ...(transport === 'stateless' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
        capabilities: elicit ? { elicitation: { form: {} } } : {},
      },
    );
    if (elicit) client.setRequestHandler('elicitation/create', async (request) => elicit(request.params as { message: string }) as never);
    if (transport === 'memory') {
      const [clientTransport, serverTransport] = InMemoryTransportV2.createLinkedPair();
      if (authInfo) sendWithAuth(clientTransport, authInfo);
      await v2Factory().connect(serverTransport);
      await client.connect(clientTransport);
      return client as unknown as TestClient;
    }
    let http: Listening;
    if (transport === 'http') {
      http = await listen(
        authInfo,
        sessionEndpoint(async () => {
          const created = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
          await v2Factory().connect(created);
          return created;
        }),
      );
    } else {
      const handler = createMcpHandler(v2Factory, { legacy: 'reject' });
      const serveNode = toNodeHandler(handler);
      const listening = await listen(authInfo, (request, response) => serveNode(request, response));
      http = { url: listening.url, close: async () => Promise.all([handler.close(), listening.close()]).then(() => undefined) };
    }
    await client.connect(new HttpClientTransportV2(http.url));
    return closingAlso(client as unknown as TestClient, http.close);
  },
  stdioTransports: ['stdio', 'stateless'],
  async connectStdio(script, { transport = 'stdio' } = {}) {
    const client = new ClientV2(
      { name: 'mcpflow-test', version: '1.0.0' },
      transport === 'stateless' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
    );
    await client.connect(new StdioClientTransportV2({ command: process.execPath, args: [script, '--sdk', '2'], stderr: 'pipe' }));
    return client as unknown as TestClient;
  },
  signalOf: (context) => (context as { mcpReq: { signal: AbortSignal } }).mcpReq.signal,
  authOf: (context) => (context as { http?: { authInfo?: AuthInfo } }).http?.authInfo,
  metaOf: (context) => (context as { mcpReq: { _meta?: Record<string, unknown> } }).mcpReq._meta,
};

export const LINES: readonly Line[] = [v1, v2];

/** Every line with every transport it serves, labelled for `describe.each(MATRIX)('$label', …)`. */
export const MATRIX: readonly { label: string; line: Line; transport: TransportName }[] = LINES.flatMap((line) =>
  line.transports.map((transport) => ({ label: `${line.name} ${transport}`, line, transport })),
);

/** Every line with every stdio transport its examples serve, for subprocess tests. */
export const STDIO_MATRIX: readonly { label: string; line: Line; transport: 'stdio' | 'stateless' }[] = LINES.flatMap((line) =>
  line.stdioTransports.map((transport) => ({
    label: `${line.name} ${transport === 'stdio' ? 'stdio' : 'stdio 2026-07-28'}`,
    line,
    transport,
  })),
);

/** Each line in memory: for long property tests, where the wire adds time and nothing else. */
export const IN_MEMORY = MATRIX.filter((entry) => entry.transport === 'memory');

/** The transports where one server serves a client's requests: for tests that change a server between requests. */
export const SESSIONFUL = MATRIX.filter((entry) => entry.transport !== 'stateless');

/**
 * The `_meta` the protocol itself adds to a result: on 2026-07-28 the server identifies itself on
 * every response (`io.modelcontextprotocol/serverInfo`); the 2025 protocol adds nothing.
 */
export function protocolMeta(transport: TransportName, serverInfo: { name: string; version: string }): Record<string, unknown> {
  return transport === 'stateless' ? { 'io.modelcontextprotocol/serverInfo': serverInfo } : {};
}

/** Text of a prompt message, or the embedded resource it carries. */
export function messageText(message: { content: { type: string; text?: string; resource?: { uri: string } } }): string {
  if (message.content.type === 'text') return message.content.text ?? '';
  if (message.content.type === 'resource') return `[resource ${message.content.resource?.uri}]`;
  return `[${message.content.type}]`;
}

interface Listening {
  readonly url: URL;
  close(): Promise<void>;
}

interface SessionTransport {
  readonly sessionId?: string;
  onclose?: (() => void) | undefined;
  handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

/** A sessionful Streamable HTTP endpoint: a transport (and a server) per `initialize`. */
function sessionEndpoint(open: () => Promise<SessionTransport>): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  const sessions = new Map<string, SessionTransport>();
  return async (request, response) => {
    const sessionId = request.headers['mcp-session-id'];
    let transport = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (!transport) {
      transport = await open();
      const opened = transport;
      opened.onclose = () => {
        if (opened.sessionId) sessions.delete(opened.sessionId);
      };
    }
    await transport.handleRequest(request, response);
    if (transport.sessionId) sessions.set(transport.sessionId, transport);
  };
}

/** Sends every message as if a verified token came with it, as the in-memory transports allow. */
function sendWithAuth(transport: { send(message: never, options?: { authInfo?: AuthInfo }): Promise<void> }, authInfo: AuthInfo): void {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(message, { ...options, authInfo });
}

/** Listens on 127.0.0.1, a free port; `authInfo` is set as `req.auth`, as auth middleware would. */
async function listen(
  authInfo: AuthInfo | undefined,
  handle: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<Listening> {
  const server: Server = createServer((request, response) => {
    if (authInfo) (request as IncomingMessage & { auth?: AuthInfo }).auth = authInfo;
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function closingAlso(client: TestClient, stop: () => Promise<void>): TestClient {
  const close = client.close.bind(client);
  client.close = async () => {
    await close();
    await stop();
  };
  return client;
}
