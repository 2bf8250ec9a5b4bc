import { McpServer, type ServerNotifier } from '@modelcontextprotocol/server';
import { registerClientRequestTools } from './fixtures/client-request-tools';
import { registerContentTools } from './fixtures/content-tools';
import { registerPrompts, registerResources } from './fixtures/resources-and-prompts';
import { registerInputRequiredTools, requestStateCodec } from './fixtures/input-required-tools';
import { registerHeaderMirroredTool, registerListChangeTriggers, registerStatelessTools } from './fixtures/stateless-tools';

/**
 * The server the MCP conformance suite drives: the tools, resources and prompts its server
 * scenarios call by name, on one 2.x server. Served through `serveHttp` from `@mcpflow/core/v2`,
 * whose `notify` the list-change triggers publish through.
 */
export function createConformanceServer(notify: () => ServerNotifier): McpServer {
  const server = new McpServer(
    { name: 'mcpflow-conformance', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} },
      // Every retry carrying a requestState is verified before its handler runs; a forged one is -32602.
      requestState: { verify: requestStateCodec.verify },
    },
  );
  registerContentTools(server);
  registerClientRequestTools(server);
  registerStatelessTools(server);
  registerHeaderMirroredTool(server);
  registerListChangeTriggers(server, notify);
  registerInputRequiredTools(server);
  registerResources(server);
  registerPrompts(server);
  server.server.setRequestHandler('logging/setLevel', async () => ({}));
  server.server.setRequestHandler('completion/complete', async () => ({ completion: { values: [], total: 0, hasMore: false } }));
  return server;
}
