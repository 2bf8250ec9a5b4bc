import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, promptArg } from '@mcpflow/decorators';
import { WorkflowServer, serveHttp, type HttpServing } from '@mcpflow/core/v1';
import { startStudio } from '@mcpflow/studio';

/**
 * The studio over Streamable HTTP against a 2025-era server (SDK 1.x, sessions): closing the
 * studio (what `mcpflow dev` does on Ctrl-C) ends its session on the server, so the server
 * releases that session's server at once instead of holding it, with a place of `maxSessions`,
 * until its idle timeout (10 minutes by default).
 */

@Workflow({ name: 'greet', description: 'Greets someone', arguments: { name: z.string() } })
class Greet {
  @Step({ tool: 'say_hello', args: { name: promptArg('name') } })
  hello!: unknown;
}

function build(): WorkflowServer {
  const server = new WorkflowServer({ name: 'session-end', version: '1.0.0' });
  server.registerTool('say_hello', { inputSchema: { name: z.string() } }, async ({ name }) => ({
    content: [{ type: 'text', text: `hello ${name}` }],
  }));
  return server.use(Greet);
}

describe('studio over Streamable HTTP, server on SDK 1.x (2025 sessions)', () => {
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
});
