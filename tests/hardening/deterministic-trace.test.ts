import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, constant, field, fromStep, item, promptArg } from '@mcpflow/decorators';
import { MATRIX, type Line } from '../helpers/lines';

/**
 * DESIGN §2.8 "No oracles": the trace and `_meta["mcpflow/execution"]` depend only on the inputs
 * and the tools' results — no durations, timestamps or random ids (the run id included: tools see
 * it, the trace does not). Run twice with the same inputs and results, but tools that take random
 * time, and a run comes back byte for byte the same: parallel steps, a loop, an optional failure,
 * a sensitive value, a step timeout, and a question the client cannot answer.
 */
@Workflow({
  name: 'audit',
  description: 'Audit a project',
  arguments: { project: z.string(), token: z.string() },
  sensitiveArguments: ['token'],
})
class Audit {
  @Step({ tool: 'list', parallel: true, args: { project: promptArg('project') } })
  @Bind('repos')
  repos!: { names: string[] };

  @Step({ tool: 'owner', parallel: true, args: { project: promptArg('project'), token: promptArg('token') } })
  @Bind('owner')
  owner!: { name: string };

  @Step({ tool: 'flaky', parallel: true, optional: true, args: { project: promptArg('project') } })
  flaky!: unknown;

  @Step({
    tool: 'scan',
    forEach: field('repos', 'names'),
    concurrency: 3,
    args: { repo: item(), pin: constant('0000') },
    sensitiveArgs: ['pin'],
  })
  @Bind('scans')
  scans!: unknown[];

  @Step({ tool: 'slow', timeoutMs: 20, optional: true, args: { project: promptArg('project') } })
  slow!: unknown;

  @Step({ tool: 'report', args: { scans: fromStep('scans'), to: askUser('Send the audit of {project} to whom?') } })
  report!: unknown;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jitter = () => pause(Math.random() * 15);

function auditServer(line: Line) {
  return () => {
    const server = new line.WorkflowServer({ name: 'auditor', version: '1.0.0' });
    const tool = (name: string, run: (args: Record<string, unknown>) => unknown) =>
      server.registerTool(
        name,
        {
          inputSchema: {
            project: z.string().optional(),
            token: z.string().optional(),
            repo: z.string().optional(),
            pin: z.string().optional(),
          },
        },
        async (args) => {
          await jitter();
          const value = run(args);
          return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
        },
      );
    tool('list', ({ project }) => ({
      names: [`${String(project)}-api`, `${String(project)}-web`, `${String(project)}-cli`, `${String(project)}-docs`],
    }));
    tool('owner', ({ token }) => ({ name: `owner seen with ${String(token)}` }));
    tool('flaky', () => {
      throw new Error('upstream unavailable');
    });
    tool('scan', ({ repo }) => ({ repo, findings: String(repo).length }));
    server.registerTool('slow', { inputSchema: { project: z.string() } }, async () => {
      await pause(200);
      return { content: [{ type: 'text', text: 'too late' }] };
    });
    server.registerTool('report', { inputSchema: { scans: z.unknown(), to: z.string() } }, async () => ({
      content: [{ type: 'text', text: 'sent' }],
    }));
    return server.use(Audit);
  };
}

describe.each(MATRIX)('the same inputs and results give the same trace and _meta: $label', ({ line, transport }) => {
  test('twice, with tools taking random time', async () => {
    const runs = [];
    for (let run = 0; run < 2; run += 1) {
      const client = await line.connect(auditServer(line), { transport });
      const { messages, _meta } = await client.getPrompt({ name: 'audit', arguments: { project: 'atlas', token: 'tok-1234' } });
      await client.close();
      runs.push(JSON.stringify({ messages, _meta }));
    }
    expect(runs[1]).toBe(runs[0]);
    const { _meta } = JSON.parse(runs[0]) as { _meta: Record<string, unknown> };
    expect(_meta['mcpflow/execution']).toMatchObject({
      status: 'handoff',
      steps: [
        { name: 'repos', status: 'completed' },
        { name: 'owner', status: 'completed' },
        { name: 'flaky', status: 'failed', reason: 'tool flaky threw: upstream unavailable' },
        { name: 'scans', status: 'completed', iterations: { count: 4, completed: 4 } },
        { name: 'slow', status: 'failed', reason: 'tool slow timed out after 20 ms' },
        { name: 'report', status: 'handoff' },
      ],
    });
    expect(runs[0]).not.toMatch(/tok-1234|0000|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  });
});
