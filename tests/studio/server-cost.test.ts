import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, promptArg } from '@mcpflow/decorators';
import { WorkflowServer, serveHttp, type HttpServing } from '@mcpflow/core/v1';
import { startStudio, type Studio } from '@mcpflow/studio';

/**
 * What the studio costs the server it is a client of (issue 29), over Streamable HTTP against a
 * 2025-era server (SDK 1.x, sessions), read off what the server receives: closing the studio (what
 * `mcpflow dev` does on Ctrl-C) ends its session, so the server releases that session's server at
 * once instead of holding it, with a place of `maxSessions`, until its idle timeout (10 minutes by
 * default); and a run started from the page costs the server the run's own request, not a
 * `prompts/list` + `tools/list` first.
 */

@Workflow({ name: 'greet', description: 'Greets someone', arguments: { name: z.string() } })
class Greet {
  @Step({ tool: 'say_hello', args: { name: promptArg('name') } })
  hello!: unknown;
}

/** The JSON-RPC methods the server received, in order, over every session. */
const received: string[] = [];

function build(): WorkflowServer {
  const server = new WorkflowServer({ name: 'server-cost', version: '1.0.0' });
  server.registerTool('say_hello', { inputSchema: { name: z.string() } }, async ({ name }) => ({
    content: [{ type: 'text', text: `hello ${name}` }],
  }));
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const deliver = transport.onmessage!;
    transport.onmessage = (message, extra) => {
      if ('method' in message) received.push(message.method);
      deliver(message, extra);
    };
  };
  return server.use(Greet);
}

async function api(studio: Studio, route: string, body?: unknown): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${studio.port}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'x-mcpflow-token': studio.token, 'content-type': 'application/json', origin: `http://127.0.0.1:${studio.port}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

describe('studio over Streamable HTTP, server on SDK 1.x (2025 sessions): what it costs the server', () => {
  let serving: HttpServing;
  beforeAll(async () => {
    serving = await serveHttp(build, { port: 0 });
  });
  afterAll(() => serving.close());

  test('the server holds the studio’s session while it is open, and none once it closed', async () => {
    const studio = await startStudio({ url: serving.url.href });
    expect(studio.server().connection.state).toBe('connected');
    expect(serving.sessions).toBe(1);
    await studio.close();
    expect(serving.sessions).toBe(0);
  });

  test('a studio opened and closed again and again leaves no session behind', async () => {
    for (let index = 0; index < 3; index += 1) await (await startStudio({ url: serving.url.href })).close();
    expect(serving.sessions).toBe(0);
  });

  test('the page lists the workflows once; the runs it starts then cost the server only their prompts/get', async () => {
    const studio = await startStudio({ url: serving.url.href });
    try {
      received.length = 0;
      expect((await api(studio, '/api/workflows')).workflows.map((workflow: { name: string }) => workflow.name)).toEqual(['greet']);
      expect(received).toEqual(['prompts/list', 'tools/list']);
      for (const name of ['Ada', 'Bo']) {
        const { runId } = await api(studio, '/api/runs', { workflow: 'greet', face: 'prompt', arguments: { name } });
        while ((await api(studio, `/api/runs/${runId}`)).status === 'running') await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(received).toEqual(['prompts/list', 'tools/list', 'prompts/get', 'prompts/get']);
    } finally {
      await studio.close();
    }
  });

  test('a run of a workflow the last listing lacks lists again (the page need not have listed)', async () => {
    const studio = await startStudio({ url: serving.url.href });
    try {
      received.length = 0;
      const { runId } = await api(studio, '/api/runs', { workflow: 'greet', face: 'prompt', arguments: { name: 'Cy' } });
      while ((await api(studio, `/api/runs/${runId}`)).status === 'running') await new Promise((resolve) => setTimeout(resolve, 10));
      expect((await api(studio, `/api/runs/${runId}`)).status).toBe('completed');
      expect(received).toEqual(['prompts/list', 'tools/list', 'prompts/get']);
    } finally {
      await studio.close();
    }
  });
});
