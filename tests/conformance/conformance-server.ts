import 'reflect-metadata';
import { z } from 'zod';
import type { ServerNotifier } from '@modelcontextprotocol/server';
import { Bind, Step, TemplateBinding, Workflow, promptArg } from '@mcpflow/decorators';
import { WorkflowServer } from '@mcpflow/core/v2';
import { registerClientRequestTools } from './fixtures/client-request-tools';
import { registerContentTools } from './fixtures/content-tools';
import { registerPrompts, registerResources } from './fixtures/resources-and-prompts';
import { registerInputRequiredTools, requestStateCodec } from './fixtures/input-required-tools';
import { registerTaskTools } from './fixtures/task-tools';
import { registerHeaderMirroredTool, registerListChangeTriggers, registerStatelessTools } from './fixtures/stateless-tools';

/** A workflow beside the suite's fixtures: the WorkflowServer's own prompts must not disturb any scenario. */
@Workflow({ name: 'read_template', description: 'Read a template resource for an id', arguments: { id: z.string() } })
class ReadTemplate {
  @Step({ resource: 'test://template/{id}/data' })
  @TemplateBinding('id', promptArg('id'))
  @Bind('data')
  data!: { id: string; templateTest: boolean };
}

/**
 * The server the MCP conformance suite drives: the tools, resources and prompts its server
 * scenarios call by name, on one 2.x WorkflowServer that also serves a workflow. Served through `serveHttp` from `@mcpflow/core/v2`,
 * whose `notify` the list-change triggers publish through.
 */
export function createConformanceServer(notify: () => ServerNotifier): WorkflowServer {
  const server = new WorkflowServer(
    { name: 'mcpflow-conformance', version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        logging: {},
        completions: {},
      },
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
  registerTaskTools(server);
  registerResources(server);
  registerPrompts(server);
  server.server.setRequestHandler('logging/setLevel', async () => ({}));
  server.server.setRequestHandler('completion/complete', async () => ({ completion: { values: [], total: 0, hasMore: false } }));
  return server.use(ReadTemplate);
}
