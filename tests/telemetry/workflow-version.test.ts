import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';
import type { McpServer } from '@modelcontextprotocol/server';
import { LINES, v2 as v2Line, type Line, type TestServer } from '../helpers/lines';
import { RawTaskWire } from '../helpers/raw-task-wire';
import { ShipV1 } from './ship-v1';
import { recordSpans, runSpan } from '../helpers/tracing';

/**
 * Which version a run started or resumed on (DESIGN §2.16 "Seen"), as a user reads it: the run
 * span's `mcpflow.workflow.version` (and `gen_ai.operation.name`), the debug lines, and the result's
 * `_meta["mcpflow/run"].version` — through real clients of both SDK lines, with a real tracer
 * provider. A state paused on version 1 and resumed by the class kept in `previous` names version 1.
 */
const recorded = recordSpans();
const KEY = 'the state key of the workflow-version test, 32+ bytes';

/** Version 2: a step inserted before the question, version 1 kept to resume what paused on it. */
@Workflow({
  name: 'ship',
  version: '2',
  previous: [ShipV1],
  description: 'Ship a release',
  arguments: { release: z.string() },
  expose: { tool: true },
})
class ShipV2 {
  @Step({ tool: 'build', args: { release: promptArg('release') } })
  @Bind('built')
  built!: unknown;

  @Step({ tool: 'scan', args: { release: promptArg('release') } })
  scanned!: unknown;

  @Step({ tool: 'deliver', args: { target: askUser('Ship {release} where?', { choices: field('built', 'targets') }) } })
  delivered!: unknown;
}

/** A workflow that declares no version. */
@Workflow({ name: 'unversioned', arguments: { release: z.string() } })
class Unversioned {
  @Step({ tool: 'build', args: { release: promptArg('release') } })
  built!: unknown;
}

function shipServer(line: Line, workflow: typeof ShipV1 | typeof ShipV2, logged: string[]): () => TestServer {
  return () => {
    const server = new line.WorkflowServer(
      { name: 'shipping', version: '1.0.0' },
      { pause: { keys: [KEY] }, logger: (text) => logged.push(text) },
    );
    const json = (value: unknown) => ({
      content: [{ type: 'text' as const, text: JSON.stringify(value) }],
      structuredContent: value as never,
    });
    server.registerTool('build', { inputSchema: { release: z.string() } }, async () => json({ targets: ['staging', 'production'] }));
    server.registerTool('scan', { inputSchema: { release: z.string() } }, async () => json({ clean: true }));
    server.registerTool('deliver', { inputSchema: { target: z.string() } }, async ({ target }) => json({ shipped: target }));
    return server.use(workflow, Unversioned);
  };
}

describe.each(LINES)('a declared version is seen: $name memory', (line) => {
  const accept = () => ({ action: 'accept' as const, content: { target: 'staging' } });

  test('prompts/get: the run span names the version and invoke_workflow, the debug line and _meta["mcpflow/run"] the version', async () => {
    const logged: string[] = [];
    const client = await line.connect(shipServer(line, ShipV2, logged), { elicit: accept });
    const result = await client.getPrompt({ name: 'ship', arguments: { release: '7.1' } });
    const plain = await client.getPrompt({ name: 'unversioned', arguments: { release: '7.1' } });
    await client.close();

    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(result._meta?.['mcpflow/run']).toEqual({ version: '2' });
    const run = runSpan(recorded.spans(), 'prompts/get ship');
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'mcpflow.workflow.name': 'ship',
      'mcpflow.workflow.version': '2',
    });
    expect(logged).toContain('mcpflow run ship started: prompts/get ship, 3 steps, version 2');

    // No version declared: nothing names one, and the result's _meta is what it was before versions.
    expect(Object.keys(plain._meta ?? {})).toEqual(['mcpflow/execution']);
    expect(runSpan(recorded.spans(), 'prompts/get unversioned').attributes).not.toHaveProperty('mcpflow.workflow.version');
    expect(logged).toContain('mcpflow run unversioned started: prompts/get unversioned, 1 step');
  });

  test("tools/call: the run span names the version (and stays a tool's execute_tool), the tool result's _meta the version", async () => {
    const client = await line.connect(shipServer(line, ShipV2, []), { elicit: accept });
    const result = await client.callTool({ name: 'ship', arguments: { release: '7.1' } });
    await client.close();
    expect(result.isError).toBeFalsy();
    expect(result._meta?.['mcpflow/run']).toEqual({ version: '2' });
    expect(runSpan(recorded.spans(), 'tools/call ship').attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'mcpflow.workflow.version': '2',
    });
  });
});

test('2026-07-28: a run paused on version 1 and resumed by the class kept in previous names version 1; a new run version 2', async () => {
  const logged: string[] = [];
  const server = (workflow: typeof ShipV1 | typeof ShipV2) => shipServer(v2Line, workflow, logged) as unknown as () => McpServer;
  const v1 = RawTaskWire.inProcess(server(ShipV1));
  const v2 = RawTaskWire.inProcess(server(ShipV2));
  try {
    const paused = await v1.client.request('prompts/get', { name: 'ship', arguments: { release: '7.1' } }, { tasks: false });
    expect(paused.result).toMatchObject({ resultType: 'input_required' });
    expect(runSpan(recorded.spans(), 'prompts/get ship').attributes).toMatchObject({
      'mcpflow.workflow.version': '1',
      'mcpflow.run.round': 1,
    });

    const resumed = await v2.client.request(
      'prompts/get',
      {
        name: 'ship',
        arguments: { release: '7.1' },
        inputResponses: { 'delivered/target': { action: 'accept', content: { target: 'production' } } },
        requestState: paused.result!.requestState,
      },
      { tasks: false },
    );
    expect(resumed.result?._meta).toMatchObject({ 'mcpflow/execution': { status: 'completed' }, 'mcpflow/run': { version: '1' } });
    const rounds = recorded.spans().filter((span) => span.name === 'prompts/get ship');
    expect(rounds.map((span) => [span.attributes['mcpflow.run.round'], span.attributes['mcpflow.workflow.version']])).toEqual([
      [1, '1'],
      [2, '1'],
    ]);
    expect(logged).toEqual(
      expect.arrayContaining([
        'mcpflow run ship started: prompts/get ship, 2 steps, version 1',
        'mcpflow run ship resumed: prompts/get ship, round 2, version 1',
      ]),
    );

    const fresh = await v2.client.request('prompts/get', { name: 'ship', arguments: { release: '7.2' } }, { tasks: false });
    expect(fresh.result).toMatchObject({ resultType: 'input_required' });
    expect(logged).toContain('mcpflow run ship started: prompts/get ship, 3 steps, version 2');
  } finally {
    await Promise.all([v1.close(), v2.close()]);
  }
});
