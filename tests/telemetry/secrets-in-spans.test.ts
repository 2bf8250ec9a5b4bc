import 'reflect-metadata';
import fc from 'fast-check';
import { z } from 'zod';
import { SpanKind } from '@opentelemetry/api';
import { Bind, Step, TemplateBinding, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';
import { runWorkflow } from '@mcpflow/testing';
import { findSecret } from '../helpers/secrets';
import { exported, recordSpans } from '../helpers/tracing';

/**
 * DESIGN §2.11: no span name, attribute, event, status message or link ever holds an argument
 * value, an answer, a URI with values filled in, or a secret — a failed step's status message is
 * the step, the error type and what failed. Random values go everywhere a run could leak them into telemetry, on
 * both SDK lines and both protocols (asked in place, and paused and resumed by rounds).
 */
const recorded = recordSpans();

@Workflow({
  name: 'vault',
  description: 'Use a vault',
  arguments: { api_key: z.string(), player: z.string() },
  sensitiveArguments: ['api_key'],
})
class Vault {
  @Step({ tool: 'get_token', args: { user: promptArg('player') }, guidance: 'Logging in {player} with {api_key}' })
  @Bind('login')
  login!: { token: string };

  @Step({
    tool: 'use_all',
    args: { key: promptArg('api_key'), token: field('login', 'token'), player: promptArg('player') },
    sensitiveArgs: ['token'],
    resources: ['vault://keys/{k}'],
  })
  @TemplateBinding('k', promptArg('api_key'))
  @Bind('used')
  used!: unknown;

  @Step({ resource: 'vault://tokens/{t}/{p}' })
  @TemplateBinding('t', field('login', 'token'))
  @TemplateBinding('p', promptArg('player'))
  @Bind('page')
  page!: string;

  @Step({ tool: 'open_drawer', args: { drawer: askUser('Which drawer should {player} open?') } })
  @Bind('drawer')
  drawer!: unknown;

  @Step({ tool: 'fail_with', args: { key: promptArg('api_key'), token: field('login', 'token') }, sensitiveArgs: ['token'] })
  last!: unknown;
}

const CHARS = [...'abcXYZ019', '/', '+', '=', '%', '?', '#', '&', '"', '\\', ' ', '.', '-', '_', '~', "'", ':', '@', 'é', '漢', '🙂', '\n'];
const value = fc
  .string({ unit: fc.constantFrom(...CHARS), minLength: 10, maxLength: 24 })
  .filter((text) => new Set(text).size >= 4 && !'[redacted]'.includes(text));

const CLIENTS = [
  { label: 'SDK 1.x, asked in place', sdk: 1, protocol: '2025-11-25' },
  { label: 'SDK 2.x, asked in place', sdk: 2, protocol: '2025-11-25' },
  { label: 'SDK 2.x, paused and resumed (2026-07-28)', sdk: 2, protocol: '2026-07-28' },
] as const;

describe.each(CLIENTS)('$label', ({ sdk, protocol }) => {
  test('a random key, token, player and answer never appear in any span, in any encoding — a failing tool echoing them included', async () => {
    await fc.assert(
      fc.asyncProperty(value, value, value, value, async (key, token, player, answer) => {
        const before = recorded.spans().length;
        const run = await runWorkflow(Vault, {
          arguments: { api_key: key, player },
          sdk,
          protocol,
          tools: {
            get_token: () => ({ token }),
            use_all: (args) => ({ echoed: args }),
            open_drawer: ({ drawer }) => ({ opened: drawer }),
            fail_with: ({ key: given, token: held }) => {
              throw new Error(`rejected ${given} (${encodeURIComponent(given)}) with ${JSON.stringify({ token: held })}`);
            },
          },
          resources: {
            'vault://keys/{k}': (variables) => `key page ${JSON.stringify(variables)}`,
            'vault://tokens/{t}/{p}': (variables, uri) => `token page ${uri}`,
          },
          answers: { 'drawer/drawer': answer },
        });
        expect(run.status).toBe('failed');
        expect(run.meta.stoppedAt).toBe('last');

        const spans = recorded.spans().slice(before);
        // Every step ran and failed or completed on a span; the run span (two when it paused) says so.
        expect(spans.filter((span) => span.kind === SpanKind.SERVER).length).toBe(protocol === '2026-07-28' ? 2 : 1);
        expect(spans.filter((span) => span.status.message === 'step last: Error, tool fail_with threw')).toHaveLength(2);
        expect(spans.some((span) => span.events.some((event) => event.name === 'mcpflow.ask'))).toBe(true);
        for (const secret of [key, token, player, answer]) {
          for (const span of spans) expect(findSecret(exported(span), secret)).toBeUndefined();
        }
      }),
      { numRuns: 25, seed: 21_2026 },
    );
  });
});
