import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, equals, field, oneOf, promptArg } from '@mcpflow/decorators';
import { LINES } from '../helpers/lines';

/**
 * A skipped step's reason names its `when` condition. What the condition compares a sensitive
 * source with — the expected API key, the admin tokens — is the server's secret: the reason must
 * not show it to a client whose guess was wrong (issue 31.1; the SKILL.md and the graph redact it
 * the same way).
 */
@Workflow({ name: 'guarded', arguments: { api_key: z.string() }, sensitiveArguments: ['api_key'] })
class Guarded {
  @Step({ tool: 'login', args: { key: promptArg('api_key') } })
  @Bind('session')
  session!: { token: string };

  @Step({ tool: 'audit', when: equals(promptArg('api_key'), 'sk-live-the-real-key') })
  audited!: unknown;

  @Step({
    tool: 'escalate',
    args: { token: field('session', 'token') },
    sensitiveArgs: ['token'],
    when: oneOf(field('session', 'token'), ['tok-admin-1']),
  })
  escalated!: unknown;
}

test.each(LINES.map((line) => [line.name, line] as const))(
  'a skipped step whose when compares a sensitive source says why without the value compared with (%s)',
  async (_name, line) => {
    const client = await line.connect(() => {
      const server = new line.WorkflowServer({ name: 'guarded', version: '1.0.0' });
      server.registerTool('login', { inputSchema: { key: z.string() } }, async () => ({
        content: [{ type: 'text', text: '{"token":"tok-user-7"}' }],
        structuredContent: { token: 'tok-user-7' },
      }));
      server.registerTool('audit', { inputSchema: {} }, async () => ({ content: [{ type: 'text', text: 'audited' }] }));
      server.registerTool('escalate', { inputSchema: { token: z.string() } }, async () => ({ content: [{ type: 'text', text: 'up' }] }));
      return server.use(Guarded);
    });
    try {
      const result = await client.getPrompt({ name: 'guarded', arguments: { api_key: 'sk-guess' } });
      const sent = JSON.stringify(result);
      expect(sent).toContain("when equals(promptArg('api_key'), [redacted]) is false");
      expect(sent).toContain("when oneOf(field('session', 'token'), [redacted]) is false");
      for (const secret of ['sk-live-the-real-key', 'tok-admin-1']) expect(sent).not.toContain(secret);
    } finally {
      await client.close();
    }
  },
);
