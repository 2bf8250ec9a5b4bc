import type { AdapterLine } from '../adapter-line';
import { parsePromptArguments } from '../prompts/parse-prompt-arguments';
import type { ToolHandle } from '../registry/handles';
import type { McpServerLike } from '../registry/mcp-server-like';
import type { ServerRegistry } from '../registry/server-registry';
import type { WorkflowArguments } from '../run/workflow-runner';
import type { ToolWorkflow } from './tool-face';

/** A `tools/call` request as both lines' handlers receive it. */
interface CallToolRequest {
  readonly params?: { readonly name?: unknown; readonly arguments?: unknown };
}

type RequestHandler = (request: CallToolRequest, context: unknown) => unknown;

/**
 * Sends `tools/call` for a workflow tool to `call` and every other tool to the SDK's own handler.
 * The SDK's handler turns every failure into an `isError` result, a bad argument included; a
 * workflow tool answers bad arguments, and a `requestState` it will not resume from, with an
 * `InvalidParams` error that names them, as its prompt does. Wraps the line's protocol
 * `setRequestHandler` once, when the server is made, so the SDK's handler is kept whenever the
 * SDK sets it (on the first `registerTool`).
 *
 * @example
 * ```ts
 * routeToolCalls(server, line, (name) => workflowToolNamed(name), (tool, args, context) => callWorkflowTool(…));
 * ```
 */
export function routeToolCalls<Context>(
  server: McpServerLike,
  line: AdapterLine<unknown, Context>,
  find: (name: unknown) => ToolWorkflow<Context> | undefined,
  tasks?: ToolCallTasks<Context>,
): void {
  const protocol = server.server;
  const setRequestHandler = protocol.setRequestHandler;
  protocol.setRequestHandler = function (this: unknown, ...args: unknown[]) {
    const handler = args[1] as RequestHandler;
    const callTool = args.length === 2 && typeof handler === 'function' && line.registersCallTool(args[0]);
    if (callTool) {
      const route = (request: CallToolRequest, context: unknown) => {
        const name = request.params?.name;
        const workflow = find(name);
        return workflow
          ? callWorkflowTool(line, workflow, name as string, request.params?.arguments, context as Context)
          : handler(request, context);
      };
      args[1] = (request: CallToolRequest, context: unknown) => {
        const name = request.params?.name;
        if (!tasks?.handles(name) || !tasks.enabled(name)) return route(request, context);
        return tasks.call(name, request.params?.arguments, context as Context, () => route(request, context));
      };
    }
    const registered = (setRequestHandler as (...params: unknown[]) => unknown).apply(this, args);
    if (callTool) refuseProtoArguments(protocol, line, find);
    return registered;
  };
  reinstallToolHandlers(server);
}

/** How both lines' `McpServer` keep their tool handlers (set on the first `registerTool`, or at once with `capabilities.tools`). */
interface ToolHandlersState {
  _toolHandlersInitialized?: boolean;
  setToolRequestHandlers?(): void;
  readonly server: { removeRequestHandler?(method: string): void };
}

/**
 * A server made with `capabilities: { tools }` set its tool handlers in the SDK's constructor,
 * before the kit could route them: they are set again, now through the routing.
 */
function reinstallToolHandlers(server: McpServerLike): void {
  const state = server as unknown as ToolHandlersState;
  if (state._toolHandlersInitialized !== true || typeof state.setToolRequestHandlers !== 'function') return;
  state.server.removeRequestHandler?.('tools/list');
  state.server.removeRequestHandler?.('tools/call');
  state._toolHandlersInitialized = false;
  state.setToolRequestHandlers();
}

/** The tools that may run as MCP tasks (DESIGN §2.13): their `tools/call` goes through the server's tasks first. */
export interface ToolCallTasks<Context> {
  handles(name: unknown): name is string;
  /** Whether the tool is registered and enabled (a disabled one is the SDK's to refuse). */
  enabled(name: string): boolean;
  call(name: string, raw: unknown, context: Context, sync: () => unknown): Promise<unknown>;
}

/** A protocol's handlers by method, each taking the request as it came off the wire (both lines keep this map). */
type WireHandlers = Map<string, (request: CallToolRequest, context: unknown) => unknown>;

/**
 * The SDK's request schema drops an argument named `__proto__` (zod builds the parsed object on
 * `{}`), so the workflow tool would run as if it had not been sent, where `prompts/get` (which
 * parses nothing) refuses it. This checks the request as it came off the wire, before the SDK
 * parses it: a workflow tool's arguments holding `__proto__` get the same `InvalidParams` error as
 * any undeclared argument. Any other request goes on untouched, at the cost of one own-key check.
 */
function refuseProtoArguments<Context>(
  protocol: McpServerLike['server'],
  line: AdapterLine<unknown, Context>,
  find: (name: unknown) => ToolWorkflow<Context> | undefined,
): void {
  const handlers = (protocol as { _requestHandlers?: WireHandlers })._requestHandlers;
  const stored = handlers?.get('tools/call');
  if (!handlers || !stored) return;
  handlers.set('tools/call', (request, context) => {
    const raw = request?.params?.arguments;
    const workflow = typeof raw === 'object' && raw !== null && Object.hasOwn(raw, '__proto__') ? find(request.params?.name) : undefined;
    if (!workflow) return stored(request, context);
    // Every key is checked, `__proto__` among them: this throws the InvalidParams error that names it.
    return Promise.resolve(parsePromptArguments(line, 'tool', String(request.params?.name), workflow.inputSchema, raw, true)).then(() =>
      stored(request, context),
    );
  });
}

/**
 * A client's `tools/call` of a workflow tool: its arguments checked as `prompts/get` checks a
 * workflow's (an `InvalidParams` error naming each problem), then the run.
 */
async function callWorkflowTool<Context>(
  line: AdapterLine<unknown, Context>,
  workflow: ToolWorkflow<Context>,
  name: string,
  raw: unknown,
  context: Context,
): Promise<unknown> {
  const parsed = parsePromptArguments(line, 'tool', name, workflow.inputSchema, raw, true);
  const args = (parsed instanceof Promise ? await parsed : parsed) ?? {};
  return workflow.call(args as WorkflowArguments, context);
}

/** The workflow a tool handle serves, if it is one of the server's workflow tools and enabled (a disabled one is the SDK's to refuse). */
export function workflowToolOf<Context>(
  registry: ServerRegistry,
  tools: WeakMap<ToolHandle, ToolWorkflow<Context>>,
  name: unknown,
): ToolWorkflow<Context> | undefined {
  if (typeof name !== 'string') return undefined;
  const handle = registry.tools.get(name);
  return handle?.enabled ? tools.get(handle) : undefined;
}
