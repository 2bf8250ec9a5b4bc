import 'reflect-metadata';
import fc from 'fast-check';
import { z } from 'zod';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { Bind, Step, TemplateBinding, Workflow, constant, field, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, StepEvent } from '@mcpflow/core';
import { IN_MEMORY, type Line } from '../../helpers/lines';
import { findSecret } from '../../helpers/secrets';

/** Every RFC 6570 operator mcpflow accepts, each in a URI the server expands with a secret. */
const TEMPLATES = ['vault://a/{k}', 'vault://c{/k}', 'vault://d/x{.k}', 'vault://e{?k}', 'vault://f?z=1{&k}'];
/** `{+k}` keeps `?`, `#` and `/`, so some secrets cannot fill it and the run hands off there: it comes last. */
const RESERVED = ['vault://b/{+k}', 'vault://p/{+p}'];

/**
 * A workflow that puts three secrets everywhere the server writes: `key` a sensitive prompt
 * argument, `token` a tool's output later passed as a sensitive argument (login → token), `pin`
 * a sensitive constant. They fill URIs by every operator, tools echo them in every kind of content
 * and `_meta`, and the last step fails with all three in its error, encoded and not.
 */
function secretServer(line: Line, pin: string, events: StepEvent[], ending: 'fails' | 'hands off') {
  @Workflow({ name: 'everywhere', arguments: { api_key: z.string() }, sensitiveArguments: ['api_key'] })
  class Everywhere {
    @Step({ tool: 'get_token', args: { user: constant('alice') }, guidance: 'Logging in for {api_key}' })
    @Bind('login')
    login!: { token: string };

    @Step({
      tool: 'use_all',
      args: { key: promptArg('api_key'), token: field('login', 'token'), pin: constant(pin) },
      sensitiveArgs: ['token', 'pin'],
      resources: TEMPLATES,
    })
    @TemplateBinding('k', promptArg('api_key'))
    @Bind('used')
    used!: unknown;

    @Step({ resource: 'vault://t/{t}', resources: ['vault://p/{p}'] })
    @TemplateBinding('t', field('login', 'token'))
    @TemplateBinding('p', field('used', 'pin'))
    tokenPage!: string;

    @Step({
      tool: ending === 'fails' ? 'fail_with' : 'needs_more',
      args: { key: promptArg('api_key'), token: field('login', 'token') },
      sensitiveArgs: ['token'],
      resources: RESERVED,
    })
    @TemplateBinding('k', promptArg('api_key'))
    @TemplateBinding('p', field('used', 'pin'))
    last!: unknown;
  }

  const server = new line.WorkflowServer({ name: 'vault', version: '1.0.0' }, { onStep: (event) => void events.push(event) });
  let issued = '';
  server.registerTool('get_token', { inputSchema: { user: z.string() } }, async () => ({
    content: [
      { type: 'text', text: JSON.stringify({ token: issued }) },
      { type: 'resource_link', uri: `vault://tokens/${encodeURIComponent(issued)}`, name: issued },
    ],
    structuredContent: { token: issued },
  }));
  server.registerTool(
    'use_all',
    { inputSchema: { key: z.string(), token: z.string(), pin: z.string() } },
    async ({ key, token, pin: given }) => {
      const all = { key, token, pin: given };
      return {
        content: [
          { type: 'text', text: `used ${key} / ${token} / ${given} / ${encodeURIComponent(key)} / ${encodeURI(token)}` },
          {
            type: 'resource_link',
            uri: `https://x.example/${encodeURIComponent(given)}?k=${encodeURIComponent(key)}`,
            name: key,
            description: token,
            _meta: all,
          },
          {
            type: 'resource',
            resource: { uri: `mem://${encodeURIComponent(token)}`, text: JSON.stringify(all), _meta: all },
            _meta: { [key]: token },
          },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png', _meta: all },
        ],
        structuredContent: all,
      };
    },
  );
  server.registerTool('fail_with', { inputSchema: { key: z.string(), token: z.string() } }, async ({ key, token }) => {
    throw new Error(`rejected ${key} (${encodeURIComponent(key)}) with ${JSON.stringify({ token })}`);
  });
  server.registerTool('needs_more', { inputSchema: { key: z.string(), token: z.string(), extra: z.string() } }, async () => ({
    content: [],
  }));
  for (const template of [...TEMPLATES, ...RESERVED, 'vault://t/{t}', 'vault://p/{p}']) {
    server.registerResource(template, new line.ResourceTemplate(template, { list: undefined }), {}, async (uri, variables) => ({
      contents: [{ uri: uri.href, text: `page for ${JSON.stringify(variables)} at ${uri.href}`, _meta: { variables } }],
    }));
  }
  return {
    server: server.use(Everywhere),
    issue(token: string) {
      issued = token;
    },
  };
}

const CHARS = [
  ...'abcXYZ019',
  '/',
  '+',
  '=',
  '%',
  '?',
  '#',
  '&',
  '"',
  '\\',
  ' ',
  '.',
  '-',
  '_',
  '~',
  "'",
  '(',
  '!',
  '*',
  ':',
  '@',
  'é',
  '漢',
  '🙂',
  '\n',
  '<',
];
const secret = fc
  .string({ unit: fc.constantFrom(...CHARS), minLength: 10, maxLength: 24 })
  .filter((text) => new Set(text).size >= 4 && !'[redacted]'.includes(text));

// A hundred runs a line: in memory, where the wire adds time and nothing else.
describe.each(IN_MEMORY)('$label', ({ line, transport }) => {
  test('a random secret — prompt argument, tool output, constant — never appears in any byte the server sends, in any encoding', async () => {
    await fc.assert(
      fc.asyncProperty(secret, secret, secret, fc.constantFrom('fails' as const, 'hands off' as const), async (key, token, pin, ending) => {
        const events: StepEvent[] = [];
        const { server, issue } = secretServer(line, pin, events, ending);
        issue(token);
        const client = await line.connect(() => server, { transport });
        const progress: Progress[] = [];
        const result = await client.getPrompt(
          { name: 'everywhere', arguments: { api_key: key } },
          { onprogress: (update) => progress.push(update) },
        );
        await client.close();
        const status = (result._meta?.['mcpflow/execution'] as ExecutionMeta).status;
        expect(ending === 'fails' ? ['failed', 'handoff'] : ['handoff']).toContain(status);
        expect(result.messages.length).toBeGreaterThan(12);
        expect(progress.length).toBe(8);
        expect(events.length).toBe(8);
        for (const value of [key, token, pin]) {
          expect(findSecret(result, value)).toBeUndefined();
          expect(findSecret(progress, value)).toBeUndefined();
          expect(findSecret(events, value)).toBeUndefined();
        }
      }),
      { numRuns: 60, seed: 10_2026 },
    );
  });
});
