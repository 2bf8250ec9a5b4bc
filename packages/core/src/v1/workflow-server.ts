import type { ServerOptions } from '@modelcontextprotocol/sdk/server/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Implementation } from '@modelcontextprotocol/sdk/types.js';
import { servingWorkflows, type WorkflowServing, type WorkflowServingOptions } from '../adapter-kit';
import { v1Line } from './v1-line';

/**
 * Options of a 1.x WorkflowServer: the SDK's `ServerOptions`, and mcpflow's
 * (`onStep`, `defaultStepTimeoutMs`, `maxTraceBytes`, `askTimeoutMs`, `telemetry`, `logger`).
 */
export interface WorkflowServerOptions extends ServerOptions, WorkflowServingOptions {}

/**
 * An `McpServer` of `@modelcontextprotocol/sdk` 1.x that also serves decorated workflow classes as
 * prompts. On `prompts/get` it runs the workflow's deterministic steps itself — its own tools and
 * resources, in process — and returns the conversation trace, asking the client during the request
 * where a step needs an answer, and handing off to the client's LLM where it cannot.
 *
 * @example
 * ```ts
 * const server = new WorkflowServer({ name: 'interactive-fiction', version: '1.0.0' });
 * server.registerTool('get_my_progress', { inputSchema: { player: z.string() } }, handler);
 * server.use(GetHint);                            // structural errors throw here
 * await server.connect(new StdioServerTransport()); // unregistered tools/resources reject here
 * ```
 */
export class WorkflowServer extends servingWorkflows(McpServer, v1Line) implements WorkflowServing {
  constructor(serverInfo: Implementation, options?: WorkflowServerOptions) {
    super(serverInfo, options);
  }
}
