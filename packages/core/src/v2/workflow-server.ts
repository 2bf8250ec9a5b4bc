import { McpServer, type Implementation, type McpServerOptions } from '@modelcontextprotocol/server';
import { servingWorkflows, type WorkflowServing, type WorkflowServingOptions } from '../adapter-kit';
import { v2Line } from './v2-line';

/**
 * Options of a 2.x WorkflowServer: the SDK's `McpServerOptions`, and mcpflow's (`onStep`,
 * `defaultStepTimeoutMs`, `maxTraceBytes`, `askTimeoutMs`, `pause` for protocol 2026-07-28,
 * `telemetry`, `logger`, `tasks`: where MCP tasks live, `memoryTasks()` by default).
 */
export interface WorkflowServerOptions extends McpServerOptions, WorkflowServingOptions {}

/**
 * The 2.x SDK's `McpServer` that also serves decorated workflow classes as prompts. On
 * `prompts/get` it runs the workflow's deterministic steps itself — its own tools and resources,
 * in process, with the request's `ctx` — and returns the conversation trace, handing off to the
 * client's LLM where a step needs it. Serves 2025 clients (sessions) and 2026-07-28 clients
 * (stateless, pausing with `input_required`) alike; with a server per request, `use()` reuses
 * each class's plan.
 *
 * @example
 * ```ts
 * import { WorkflowServer, serveHttp } from '@mcpflow/core/v2';
 *
 * await serveHttp(() => {
 *   const server = new WorkflowServer({ name: 'interactive-fiction', version: '1.0.0' });
 *   server.registerTool('get_my_progress', { inputSchema: z.object({ player: z.string() }) }, handler);
 *   return server.use(GetHint);                     // structural errors throw here
 * });
 * ```
 */
export class WorkflowServer extends servingWorkflows(McpServer, v2Line) implements WorkflowServing {
  constructor(serverInfo: Implementation, options?: WorkflowServerOptions) {
    super(serverInfo, options);
  }
}
