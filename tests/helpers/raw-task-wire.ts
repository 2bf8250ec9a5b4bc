import type { AuthInfo } from '@modelcontextprotocol/client';
import type { McpServer } from '@modelcontextprotocol/server';
import { serveInProcess } from './task-serving';

/** The extension's id, as clients declare it. */
const TASKS = 'io.modelcontextprotocol/tasks';

/** A JSON-RPC answer: its result or its error, as the server sent it. */
export interface RpcAnswer {
  readonly result?: Record<string, any>;
  readonly error?: { code: number; message: string; data?: any };
}

export interface RawRequestOptions {
  /** Declare the tasks extension for this request (default true). */
  readonly tasks?: boolean;
  readonly headers?: Record<string, string>;
  /** An authenticated principal, as an authenticating transport hands it on (in-process serving only). */
  readonly authInfo?: AuthInfo;
  /** More `_meta` entries. */
  readonly meta?: Record<string, unknown>;
}

/**
 * The tasks wire of protocol 2026-07-28, by hand, for the tests that check the wire itself: the
 * exact shape of a `CreateTaskResult`, error codes, malformed `tasks/update` input, routing headers,
 * the `_meta` envelope, a sealed `requestState`. Each request carries its envelope in `_meta` (client
 * capabilities: elicitation, sampling and — unless `tasks: false` — the tasks extension) and the
 * routing headers (`Mcp-Method`, `Mcp-Name`), as the conformance suite sends them; the answer comes
 * back as sent, an error included. It neither polls nor answers: a test that follows a task to its
 * end does it as a user does, with `@mcpflow/client` (tests/helpers/task-serving.ts connects one).
 */
export class RawTaskWire {
  private id = 0;
  constructor(private readonly send: (request: Request, authInfo?: AuthInfo) => Promise<Response>) {}

  /** Over HTTP (`serveHttp`'s URL on 127.0.0.1). */
  static overHttp(url: URL): RawTaskWire {
    return new RawTaskWire((request) =>
      fetch(url, { method: 'POST', headers: request.headers, body: request.body, duplex: 'half' } as RequestInit),
    );
  }

  /** In process, through the SDK's stateless serving: a server from `factory` per request (`serveInProcess`). */
  static inProcess(factory: () => McpServer): { client: RawTaskWire; close(): Promise<void> } {
    const serving = serveInProcess(factory);
    return { client: new RawTaskWire(serving.fetch), close: () => serving.close() };
  }

  async request(method: string, params: Record<string, unknown>, options: RawRequestOptions = {}): Promise<RpcAnswer> {
    const capabilities = { elicitation: {}, sampling: {}, ...(options.tasks === false ? {} : { extensions: { [TASKS]: {} } }) };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw-task-wire', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      ...options.meta,
    };
    const name = typeof params.name === 'string' ? params.name : typeof params.taskId === 'string' ? params.taskId : undefined;
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(name === undefined ? {} : { 'mcp-name': name }),
        ...options.headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params: { ...params, _meta: meta } }),
    });
    const text = await (await this.send(request, options.authInfo)).text();
    return JSON.parse(text.startsWith('event:') || text.startsWith('data:') ? /data: (.*)/.exec(text)![1] : text) as RpcAnswer;
  }

  /** `tools/call` of `tool`. */
  call(tool: string, args: Record<string, unknown>, options?: RawRequestOptions): Promise<RpcAnswer> {
    return this.request('tools/call', { name: tool, arguments: args }, options);
  }
}
