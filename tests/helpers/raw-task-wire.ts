import { createMcpHandler, type McpServer } from '@modelcontextprotocol/server';

/** The extension's id, as clients declare it. */
const TASKS = 'io.modelcontextprotocol/tasks';

/** A JSON-RPC answer: its result or its error. */
export interface RpcAnswer {
  readonly result?: Record<string, any>;
  readonly error?: { code: number; message: string; data?: any };
}

export interface RequestOptions {
  /** Declare the tasks extension for this request (default true). */
  readonly tasks?: boolean;
  readonly headers?: Record<string, string>;
  /** An authenticated principal, as an authenticating transport hands it on (in-process serving only). */
  readonly authInfo?: { token: string; clientId: string; scopes: string[]; extra?: Record<string, unknown> };
  /** More `_meta` entries (a `traceparent`). */
  readonly meta?: Record<string, unknown>;
}

/**
 * A raw tasks client of protocol 2026-07-28 (the 2.x `Client` refuses `resultType: "task"`): each
 * request carries its envelope in `_meta` (client capabilities: elicitation, sampling and — unless
 * `tasks: false` — the tasks extension) and the routing headers (`Mcp-Method`, `Mcp-Name`), as the
 * conformance suite sends them. `send` posts one request: over HTTP, or to a handler in process.
 */
export class TaskClient {
  private id = 0;
  constructor(private readonly send: (request: Request, authInfo?: RequestOptions['authInfo']) => Promise<Response>) {}

  /** Over HTTP (`serveHttp`'s URL on 127.0.0.1). */
  static overHttp(url: URL): TaskClient {
    return new TaskClient((request) =>
      fetch(url, { method: 'POST', headers: request.headers, body: request.body, duplex: 'half' } as RequestInit),
    );
  }

  /** In process, through the SDK's stateless serving (`createMcpHandler`): a server from `factory` per request. */
  static inProcess(factory: () => McpServer): { client: TaskClient; close: () => Promise<void> } {
    const handler = createMcpHandler(factory);
    return {
      client: new TaskClient((request, authInfo) => handler.fetch(request, authInfo ? { authInfo } : undefined)),
      close: () => handler.close(),
    };
  }

  async request(method: string, params: Record<string, unknown>, options: RequestOptions = {}): Promise<RpcAnswer> {
    const capabilities = { elicitation: {}, sampling: {}, ...(options.tasks === false ? {} : { extensions: { [TASKS]: {} } }) };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'task-client', version: '1.0.0' },
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
    const response = await this.send(request, options.authInfo);
    const text = await response.text();
    const json = JSON.parse(text.startsWith('event:') || text.startsWith('data:') ? /data: (.*)/.exec(text)![1] : text) as RpcAnswer;
    return json;
  }

  async call(tool: string, args: Record<string, unknown>, options?: RequestOptions): Promise<RpcAnswer> {
    return this.request('tools/call', { name: tool, arguments: args }, options);
  }

  /** `tasks/get` until `done` holds for the task (by default: a terminal status). */
  async until(
    taskId: string,
    done: (task: Record<string, any>) => boolean = (task) => ['completed', 'failed', 'cancelled'].includes(task.status),
    options?: RequestOptions,
  ): Promise<Record<string, any>> {
    for (;;) {
      const answer = await this.request('tasks/get', { taskId }, options);
      if (answer.error) throw new Error(`tasks/get failed: ${answer.error.message}`);
      if (done(answer.result!)) return answer.result!;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }
}
