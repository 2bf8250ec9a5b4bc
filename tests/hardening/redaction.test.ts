import 'reflect-metadata';
import { z } from 'zod';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { Bind, Step, TemplateBinding, Workflow, constant, field, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, StepEvent } from '@mcpflow/core';
import { MATRIX, type Line, type TestServer, type TransportName } from '../helpers/lines';
import { findSecret } from '../helpers/secrets';

@Workflow({ name: 'keyed_read', arguments: { api_key: z.string() }, sensitiveArguments: ['api_key'] })
class KeyedRead {
  @Step({ resource: 'vault://keys/{key}', resources: ['vault://docs/{key}'], guidance: 'Reading the key.' })
  @TemplateBinding('key', promptArg('api_key'))
  keyed!: string;
}

@Workflow({ name: 'media', arguments: { api_key: z.string() }, sensitiveArguments: ['api_key'] })
class Media {
  @Step({ tool: 'fetch_media', args: { key: promptArg('api_key') } })
  media!: unknown;
}

@Workflow({ name: 'login_then_call', arguments: { user: z.string() } })
class LoginThenCall {
  @Step({ tool: 'get_token', args: { user: promptArg('user') } })
  @Bind('login')
  login!: { token: string; user: string };

  @Step({ tool: 'call_api', args: { token: field('login', 'token') }, sensitiveArgs: ['token'] })
  called!: unknown;
}

@Workflow({ name: 'sign_in' })
class SignIn {
  @Step({
    tool: 'authenticate',
    args: { credentials: constant({ user: 'svc-deployer', password: 'hunter2-Xq9' }) },
    sensitiveArgs: ['credentials'],
  })
  signedIn!: unknown;
}

/** A prompt run through a real client of the line, with everything the server sent about it. */
async function observe(
  line: Line,
  transport: TransportName,
  factory: () => TestServer,
  events: StepEvent[],
  name: string,
  args: Record<string, string>,
) {
  const client = await line.connect(factory, { transport });
  const progress: Progress[] = [];
  const result = await client.getPrompt({ name, arguments: args }, { onprogress: (update) => progress.push(update) });
  await client.close();
  return { result, progress, events, meta: result._meta?.['mcpflow/execution'] as ExecutionMeta };
}

function expectNowhere(everything: unknown, secret: string): void {
  expect(findSecret(everything, secret)).toBeUndefined();
}

describe.each(MATRIX)('redaction: $label', ({ line, transport }) => {
  function vaultServer(events: StepEvent[], failReads = false) {
    return () => {
      const server = new line.WorkflowServer({ name: 'vault', version: '1.0.0' }, { onStep: (event) => void events.push(event) });
      for (const [name, template] of [
        ['keys', 'vault://keys/{key}'],
        ['docs', 'vault://docs/{key}'],
      ] as const) {
        server.registerResource(name, new line.ResourceTemplate(template, { list: undefined }), {}, async (uri, { key }) => {
          if (failReads && name === 'keys') throw new Error(`no such key at ${uri.href}`);
          return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: `entry for a key of ${String(key).length} chars` }] };
        });
      }
      return server.use(KeyedRead);
    };
  }

  test.each([
    ['URL-safe', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
    ['with / + =', 'sk/live+4eC39Hq==Ly/jWD'],
    ['with spaces, quotes and unicode', 'sk "live" ключ 🙂 %2F'],
  ])('a sensitive argument in a resource URI never shows, in any encoding (%s)', async (_, secret) => {
    const events: StepEvent[] = [];
    const seen = await observe(line, transport, vaultServer(events), events, 'keyed_read', { api_key: secret });
    expect(seen.meta.status).toBe('completed');
    expect(seen.result.messages.map((message) => message.content.type)).toEqual(['text', 'text', 'text', 'resource', 'text', 'resource']);
    expectNowhere(seen, secret);
    expect(seen.result.messages[4].content).toEqual({ type: 'text', text: 'Reading resource vault://keys/[redacted]' });
  });

  test('nor in the failure reason, _meta or onStep when the read fails', async () => {
    const secret = 'sk/live+4eC39Hq==Ly/jWD';
    const events: StepEvent[] = [];
    const seen = await observe(line, transport, vaultServer(events, true), events, 'keyed_read', { api_key: secret });
    expect(seen.meta).toMatchObject({ status: 'failed', stoppedAt: 'keyed' });
    expect(seen.meta.reason).toBe('could not read resource vault://keys/[redacted]: no such key at vault://keys/[redacted]');
    expect(events.at(-1)).toMatchObject({ phase: 'end', status: 'failed', reason: seen.meta.reason });
    expectNowhere(seen, secret);
  });

  test("a tool's non-text content is redacted in every field: links, embedded resources, images, their _meta", async () => {
    const secret = 'pk_9f8e/7d6c+5b4a=';
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'media', version: '1.0.0' });
      server.registerTool('fetch_media', { inputSchema: { key: z.string() } }, async ({ key }) => ({
        content: [
          { type: 'text', text: 'here you go' },
          {
            type: 'resource_link',
            uri: `https://cdn.example/${encodeURIComponent(key)}/a.png`,
            name: `asset-${key}`,
            description: `signed with ${key}`,
          },
          {
            type: 'resource',
            resource: { uri: `mem://assets/${key}`, text: 'body', _meta: { signer: key } },
            _meta: { [key]: 'as a key', nested: { deep: [key] } },
          },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', _meta: { source: `https://cdn.example/?k=${encodeURI(key)}` } },
          { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', _meta: { key } },
        ],
      }));
      return server.use(Media);
    };
    const seen = await observe(line, transport, factory, [], 'media', { api_key: secret });
    expect(seen.meta.status).toBe('completed');
    expect(seen.result.messages.slice(-4).map((message) => message.content.type)).toEqual(['resource_link', 'resource', 'image', 'audio']);
    expect(seen.result.messages.at(-4)?.content).toMatchObject({ name: 'asset-[redacted]', description: 'signed with [redacted]' });
    expectNowhere(seen, secret);
  });

  test("login → token: a secret an earlier step returned is redacted in that step's result too", async () => {
    const token = 'tok_1b2c3d4e5f6a7b8c';
    const received: string[] = [];
    const events: StepEvent[] = [];
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'api', version: '1.0.0' }, { onStep: (event) => void events.push(event) });
      server.registerTool('get_token', { inputSchema: { user: z.string() } }, async ({ user }) => ({
        content: [{ type: 'text', text: JSON.stringify({ token, user }) }],
      }));
      server.registerTool('call_api', { inputSchema: { token: z.string() } }, async ({ token: given }) => {
        received.push(given);
        return { content: [{ type: 'text', text: `called with ${given}` }] };
      });
      return server.use(LoginThenCall);
    };
    const seen = await observe(line, transport, factory, events, 'login_then_call', { user: 'alice' });
    expect(received).toEqual([token]);
    expect(seen.meta.status).toBe('completed');
    expect(seen.result.messages[3].content).toEqual({ type: 'text', text: 'Result of get_token:\n{"token":"[redacted]","user":"alice"}' });
    expect(seen.result.messages[4].content).toEqual({ type: 'text', text: 'Calling tool call_api with arguments: {"token":"[redacted]"}' });
    expectNowhere(seen, token);
  });

  test('a sensitive object is redacted leaf by leaf, so a tool that echoes one field does not leak it', async () => {
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'auth', version: '1.0.0' });
      server.registerTool(
        'authenticate',
        { inputSchema: { credentials: z.object({ user: z.string(), password: z.string() }) } },
        async ({ credentials }) => ({
          content: [{ type: 'text', text: `password ${credentials.password} accepted for ${credentials.user}` }],
        }),
      );
      return server.use(SignIn);
    };
    const seen = await observe(line, transport, factory, [], 'sign_in', {});
    expect(seen.result.messages.at(-1)?.content).toEqual({
      type: 'text',
      text: 'Result of authenticate:\npassword [redacted] accepted for [redacted]',
    });
    expectNowhere(seen, 'hunter2-Xq9');
    expectNowhere(seen, 'svc-deployer');
  });
});
