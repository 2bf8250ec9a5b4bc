import 'reflect-metadata';
import { z } from 'zod';
import { createMcpHandler, type GetPromptResult } from '@modelcontextprotocol/server';
import { WorkflowServer } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, askUser, promptArg } from '@mcpflow/decorators';
import { getPrompt, manualClient } from './instances';
import { servedOnLoopback } from '../helpers/loopback-handler';

/**
 * Never seal what the opener refuses (issue 19, L1): a run whose state would be larger than any
 * resume may bring back hands off with the reason, on protocol 2026-07-28, instead of sending a
 * `requestState` no instance can open.
 */
@Workflow({ name: 'export_report', description: 'Export a report, then ask where to send it', arguments: { report: z.string() } })
class ExportReport {
  @Step({ tool: 'export', args: { report: promptArg('report') } })
  @Bind('exported')
  exported!: string;

  @Step({ tool: 'send', args: { to: askUser('Where should {report} go?') } })
  sent!: unknown;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A stateless 2.x endpoint whose export tool returns a 2 MB report. */
async function endpoint(maxBytes?: number): Promise<URL> {
  const pause = { keys: ['an unsealable-test key of 32 bytes+'], maxBytes };
  const handler = createMcpHandler(
    () => {
      const server = new WorkflowServer({ name: 'reports', version: '1.0.0' }, { pause });
      server.registerTool('export', { inputSchema: z.object({ report: z.string() }) }, async ({ report }) => ({
        content: [{ type: 'text', text: `${report}: ${'x'.repeat(2 * 1024 * 1024)}` }],
      }));
      server.registerTool('send', { inputSchema: z.object({ to: z.string() }) }, async () => ({
        content: [{ type: 'text', text: 'sent' }],
      }));
      return server.use(ExportReport);
    },
    { legacy: 'reject' },
  );
  return servedOnLoopback(handler, closers);
}

test.each([
  ['the default limit', undefined, 524288],
  ['a limit of its own', 100_000, 100_000],
])('a state over %s hands off, naming the question and the limit, instead of pausing', async (_label, maxBytes, limit) => {
  const client = await manualClient(await endpoint(maxBytes), closers);
  const result = (await getPrompt(client, { name: 'export_report', arguments: { report: 'Q3' } })) as GetPromptResult & {
    resultType?: string;
    requestState?: string;
  };
  expect(result.resultType).not.toBe('input_required');
  expect(result.requestState).toBeUndefined();
  expect(result._meta?.['mcpflow/execution']).toMatchObject({
    status: 'handoff',
    stoppedAt: 'sent',
    reason: expect.stringMatching(
      new RegExp(
        `^the server cannot pause step 'sent' to ask "Where should Q3 go\\?": its state would be \\d+ characters sealed, over this server's limit of ${limit} \\(pause\\.maxBytes\\)$`,
      ),
    ),
  });
});
