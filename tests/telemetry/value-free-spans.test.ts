import 'reflect-metadata';
import { z } from 'zod';
import { SpanStatusCode } from '@opentelemetry/api';
import { Bind, Step, TemplateBinding, Workflow, field, promptArg, workflowTool } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { MATRIX, type Line, type TestServer } from '../helpers/lines';
import { findSecret } from '../helpers/secrets';
import { childrenOf, exported, recordSpans, runSpan } from '../helpers/tracing';

/**
 * DESIGN §2.11, issue 31 point 2: no span holds a value — not a (non-sensitive) argument, not a
 * value an earlier tool returned, not a URI with values filled in, not the text of a tool's error,
 * not a nested run's trace. A failed step's status message is the step, the error type and what
 * failed; the full reason stays in `_meta`.
 */
const recorded = recordSpans();

const PLAYER = 'alice@example.com';
const ACCOUNT = 'q3-salaries.xlsx';

@Workflow({
  name: 'refund',
  arguments: { player: z.string(), account: z.string() },
  expose: { prompt: false, tool: { name: 'refund' } },
})
class Refund {
  @Step({ tool: 'pay_back', args: { player: promptArg('player'), account: promptArg('account') } })
  paid!: unknown;
}

@Workflow({ name: 'ledger', arguments: { player: z.string() } })
class Ledger {
  @Step({ tool: 'lookup', args: { player: promptArg('player') } })
  @Bind('lookup')
  lookup!: { account: string };

  @Step({ resource: 'files://{player}/{account}', optional: true })
  @TemplateBinding('player', promptArg('player'))
  @TemplateBinding('account', field('lookup', 'account'))
  file!: string;

  @Step({ tool: workflowTool(Refund), args: { player: promptArg('player'), account: field('lookup', 'account') }, optional: true })
  refunded!: unknown;

  @Step({ tool: 'charge', args: { player: promptArg('player'), account: field('lookup', 'account') } })
  charged!: unknown;
}

function ledgerServer(line: Line) {
  return (): TestServer => {
    const server = new line.WorkflowServer({ name: 'ledger', version: '1.0.0' });
    const echo = (what: string) => async (args: Record<string, string>) => {
      throw new Error(`${what} failed for ${args.player} on ${args.account}`);
    };
    server.registerTool('lookup', { inputSchema: { player: z.string() } }, async () => ({
      content: [{ type: 'text' as const, text: JSON.stringify({ account: ACCOUNT }) }],
    }));
    server.registerTool('pay_back', { inputSchema: { player: z.string(), account: z.string() } }, echo('pay_back'));
    server.registerTool('charge', { inputSchema: { player: z.string(), account: z.string() } }, echo('charge'));
    server.registerResource('files', new line.ResourceTemplate('files://{player}/{account}', { list: undefined }), {}, async (uri: URL) => {
      throw new Error(`could not open ${uri.href}`);
    });
    return server.use(Ledger);
  };
}

describe.each(MATRIX.filter((entry) => entry.transport !== 'http'))('value-free spans: $label', ({ line, transport }) => {
  test('a failed run: argument, tool value, filled URI, error text and nested trace are in _meta, in no span', async () => {
    const client = await line.connect(ledgerServer(line), { transport });
    const result = await client.getPrompt({ name: 'ledger', arguments: { player: PLAYER } });
    await client.close();
    const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta;
    // The trace and _meta keep the whole reason.
    expect(meta).toMatchObject({
      status: 'failed',
      stoppedAt: 'charged',
      reason: `tool charge threw: charge failed for ${PLAYER} on ${ACCOUNT}`,
    });
    expect(JSON.stringify(meta.steps)).toContain(encodeURIComponent(PLAYER));

    const spans = recorded.spans();
    const run = runSpan(spans, 'prompts/get ledger');
    const [lookup, file, refunded, charged] = childrenOf(spans, run);
    expect(file.status).toEqual({ code: SpanStatusCode.ERROR, message: 'step file: Error, resource files://{player}/{account} threw' });
    expect(refunded.status).toEqual({ code: SpanStatusCode.ERROR, message: 'step refunded: tool_error, tool refund returned an error' });
    expect(charged.status).toEqual({ code: SpanStatusCode.ERROR, message: 'step charged: Error, tool charge threw' });
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: 'step charged: Error, tool charge threw' });
    expect(lookup.status.code).toBe(SpanStatusCode.UNSET);
    // The nested run's own spans: under the outer step, value-free as well.
    const inner = runSpan(spans, 'tools/call refund');
    expect(inner.parentSpanContext?.spanId).toBe(refunded.spanContext().spanId);
    expect(inner.status).toEqual({ code: SpanStatusCode.ERROR, message: 'step paid: Error, tool pay_back threw' });
    for (const span of spans) {
      for (const value of [PLAYER, ACCOUNT])
        expect({ span: span.name, found: findSecret(exported(span), value) }).toEqual({ span: span.name, found: undefined });
    }
  });
});

@Workflow({ name: 'archive', arguments: { player: z.string() } })
class Archive {
  @Step({ resource: 'slow://{player}/q3-salaries.xlsx', timeoutMs: 50, optional: true })
  @TemplateBinding('player', promptArg('player'))
  slow!: string;

  @Step({ resource: 'gone://{player}' })
  @TemplateBinding('player', promptArg('player'))
  gone!: string;
}

describe.each(MATRIX.filter((entry) => entry.transport === 'memory'))('value-free spans of failed reads: $label', ({ line, transport }) => {
  test('a read that timed out and one nothing serves name the URI template, never the URI filled in', async () => {
    let gone: { remove(): void } | undefined;
    const client = await line.connect(
      () => {
        const server = new line.WorkflowServer({ name: 'archive', version: '1.0.0' });
        server.registerResource(
          'slow',
          new line.ResourceTemplate('slow://{player}/q3-salaries.xlsx', { list: undefined }),
          {},
          (_uri, _variables, context) => {
            const signal = line.signalOf(context);
            return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
          },
        );
        gone = server.registerResource('gone', new line.ResourceTemplate('gone://{player}', { list: undefined }), {}, async (uri: URL) => ({
          contents: [{ uri: uri.href, text: 'here' }],
        })) as { remove(): void };
        return server.use(Archive);
      },
      { transport },
    );
    gone!.remove();
    const result = await client.getPrompt({ name: 'archive', arguments: { player: PLAYER } });
    await client.close();
    const meta = result._meta?.['mcpflow/execution'] as ExecutionMeta;
    expect(meta).toMatchObject({ status: 'failed', stoppedAt: 'gone' });
    expect(meta.reason).toContain(encodeURIComponent(PLAYER));

    const spans = recorded.spans();
    const run = runSpan(spans, 'prompts/get archive');
    const [slow, goneStep] = childrenOf(spans, run);
    expect(slow.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'step slow: timeout, resource slow://{player}/q3-salaries.xlsx timed out after 50 ms',
    });
    const notFound = 'step gone: ResourceNotFoundError, resource gone://{player} not found';
    expect(goneStep.status).toEqual({ code: SpanStatusCode.ERROR, message: notFound });
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: notFound });
    for (const span of spans)
      expect({ span: span.name, found: findSecret(exported(span), PLAYER) }).toEqual({ span: span.name, found: undefined });
  });
});
