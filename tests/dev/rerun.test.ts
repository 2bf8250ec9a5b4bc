import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, field, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, WorkflowServingOptions } from '@mcpflow/core';
import { LINES, MATRIX, type Line, type TestClient, type TestServer } from '../helpers/lines';
import { recordSpans, runSpan } from '../helpers/tracing';

/**
 * DESIGN §2.15 "History and rerun", the server side: in dev mode (`dev: true`, or MCPFLOW_DEV=1) a
 * server records each run and answers `mcpflow/rerun` — again with the same or edited arguments, or
 * from a step, the earlier steps' outputs reused as the server recorded them (their tools are not
 * called again) — linked to its origin by `_meta["mcpflow/run"].from` and a span link. Outside dev
 * mode the method does not exist (-32601). Real clients of both SDK lines, every transport.
 */
const recorded = recordSpans();

@Workflow({ name: 'release', description: 'Fetch, build, publish', arguments: { repo: z.string() } })
class Release {
  @Step({ tool: 'fetch', args: { repo: promptArg('repo') } })
  @Bind('source')
  fetch!: { commit: string };

  @Step({ tool: 'build', args: { commit: field('source', 'commit') } })
  @Bind('artifact')
  build!: { file: string };

  @Step({ tool: 'publish', args: { file: field('artifact', 'file') } })
  @Bind('published')
  publish!: { url: string };
}

@Workflow({ name: 'ship', arguments: { repo: z.string() }, expose: { prompt: false, tool: { name: 'ship_it' } } })
class Ship {
  @Step({ tool: 'fetch', args: { repo: promptArg('repo') } })
  @Bind('source')
  fetch!: { commit: string };

  @Step({ tool: 'build', args: { commit: field('source', 'commit') } })
  @Bind('artifact')
  build!: { file: string };
}

/** How often each tool ran, and with what; kept outside the factory (a stateless server is made per request). */
let calls: Record<string, string[]>;
let fetches = 0;
beforeEach(() => {
  calls = { fetch: [], build: [], publish: [] };
  fetches = 0;
});

function releaseServer(line: Line, options: WorkflowServingOptions): TestServer {
  const server = new line.WorkflowServer({ name: 'dev', version: '1.0.0' }, options);
  const structured = (value: Record<string, unknown>) => ({
    content: [{ type: 'text' as const, text: JSON.stringify(value) }],
    structuredContent: value,
  });
  server.registerTool('fetch', { inputSchema: { repo: z.string() }, outputSchema: { commit: z.string() } }, async ({ repo }) => {
    calls.fetch.push(repo);
    fetches += 1;
    return structured({ commit: `${repo}@${fetches}` });
  });
  server.registerTool('build', { inputSchema: { commit: z.string() }, outputSchema: { file: z.string() } }, async ({ commit }) => {
    calls.build.push(commit);
    return structured({ file: `${commit}.tgz` });
  });
  server.registerTool('publish', { inputSchema: { file: z.string() }, outputSchema: { url: z.string() } }, async ({ file }) => {
    calls.publish.push(file);
    return structured({ url: `https://example.test/${file}` });
  });
  return server.use(Release, Ship);
}

type RunResult = { _meta?: Record<string, unknown>; messages?: unknown[]; structuredContent?: Record<string, unknown> };

/** `mcpflow/rerun` through the client's own request path. */
function rerun(client: TestClient, params: Record<string, unknown>): Promise<RunResult> {
  return client.request({ method: 'mcpflow/rerun', params } as never, z.looseObject({}) as never) as Promise<RunResult>;
}

/**
 * The JSON-RPC code of a refused request. Over stateless HTTP (2026-07-28) the server answers
 * -32601 with HTTP 404, which the 2.x client surfaces as an HTTP error carrying the response body.
 */
async function refusedCode(request: Promise<unknown>): Promise<unknown> {
  const error = (await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )) as { code?: unknown; data?: { text?: string } } | undefined;
  if (error?.code === 'CLIENT_HTTP_NOT_IMPLEMENTED' && error.data?.text)
    return (JSON.parse(error.data.text) as { error: { code: number } }).error.code;
  return error?.code;
}

function runMeta(result: RunResult): { id: string; from?: string } {
  return result._meta!['mcpflow/run'] as { id: string; from?: string };
}

function status(result: RunResult): string {
  return (result._meta!['mcpflow/execution'] as ExecutionMeta).status;
}

describe.each(MATRIX)('$label, dev: true', ({ line, transport }) => {
  let client: TestClient;
  beforeEach(async () => {
    client = await line.connect(() => releaseServer(line, { dev: true }), { transport });
  });
  afterEach(() => client.close());

  test('a result names its run; rerun with the recorded arguments runs every step again, linked to its origin', async () => {
    const first = (await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
    expect(status(first)).toBe('completed');
    const { id } = runMeta(first);
    expect(typeof id).toBe('string');

    const again = await rerun(client, { runId: id });
    expect(status(again)).toBe('completed');
    expect(runMeta(again).from).toBe(id);
    expect(runMeta(again).id).not.toBe(id);
    expect(calls).toEqual({ fetch: ['app', 'app'], build: ['app@1', 'app@2'], publish: ['app@1.tgz', 'app@2.tgz'] });
    // The prompt face's usual result: the conversation.
    expect(JSON.stringify(again.messages)).toContain('app@2.tgz');
  });

  test('rerun with edited arguments runs with them; arguments the workflow does not take are refused as prompts/get refuses them', async () => {
    const first = (await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
    const edited = await rerun(client, { runId: runMeta(first).id, arguments: { repo: 'lib' } });
    expect(status(edited)).toBe('completed');
    expect(calls.fetch).toEqual(['app', 'lib']);
    await expect(rerun(client, { runId: runMeta(first).id, arguments: { repo: 'lib', ref: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('ref'),
    });
    expect(calls.fetch).toEqual(['app', 'lib']);
  });

  test('rerun from a step reuses the earlier steps’ recorded outputs: their tools are not called, that step and the later ones run', async () => {
    const first = (await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
    const fromBuild = await rerun(client, { runId: runMeta(first).id, fromStep: 'build' });
    expect(status(fromBuild)).toBe('completed');
    // fetch ran once (the first run); build read the recorded source, app@1 — not a new fetch's app@2.
    expect(calls).toEqual({ fetch: ['app'], build: ['app@1', 'app@1'], publish: ['app@1.tgz', 'app@1.tgz'] });
    expect(runMeta(fromBuild).from).toBe(runMeta(first).id);
    const meta = fromBuild._meta!['mcpflow/execution'] as ExecutionMeta;
    expect(meta.steps.map((step) => step.status)).toEqual(['completed', 'completed', 'completed']);

    // A rerun is recorded too: rerun it from its last step.
    const fromPublish = await rerun(client, { runId: runMeta(fromBuild).id, fromStep: 'publish' });
    expect(status(fromPublish)).toBe('completed');
    expect(runMeta(fromPublish).from).toBe(runMeta(fromBuild).id);
    expect(calls).toEqual({ fetch: ['app'], build: ['app@1', 'app@1'], publish: ['app@1.tgz', 'app@1.tgz', 'app@1.tgz'] });
  });

  test('a workflow tool reruns through tools/call: its result is the CallToolResult, linked to its origin', async () => {
    const first = (await client.callTool({ name: 'ship_it', arguments: { repo: 'api' } })) as RunResult;
    expect(first.structuredContent).toMatchObject({ status: 'completed' });
    const again = await rerun(client, { runId: runMeta(first).id, fromStep: 'build' });
    expect(again.structuredContent).toEqual({
      status: 'completed',
      outputs: { source: { commit: 'api@1' }, artifact: { file: 'api@1.tgz' } },
    });
    expect(runMeta(again).from).toBe(runMeta(first).id);
    expect(calls).toEqual({ fetch: ['api'], build: ['api@1', 'api@1'], publish: [] });
  });

  test('an unknown run, an unknown step, a step never reached and arguments with fromStep are -32602 naming them; the server keeps serving', async () => {
    await expect(rerun(client, { runId: 'nope' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("no run 'nope'"),
    });
    await expect(rerun(client, {})).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("'runId'") });
    const first = (await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
    const { id } = runMeta(first);
    await expect(rerun(client, { runId: id, fromStep: 'biuld' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/workflow 'release' has no step 'biuld'. Did you mean 'build'\?/),
    });
    await expect(rerun(client, { runId: id, fromStep: 'build', arguments: { repo: 'x' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("'arguments' cannot change when rerunning from step 'build'"),
    });
    expect(calls.fetch).toEqual(['app']);
    expect(status((await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult)).toBe('completed');
  });
});

test.each(LINES.map((line) => [line.name, line] as const))(
  '%s: a run that failed at a step reruns from that step, never from a later one',
  async (_name, line) => {
    let failing = true;
    const client = await line.connect(() => {
      const server = new line.WorkflowServer({ name: 'dev', version: '1.0.0' }, { dev: true });
      server.registerTool('fetch', { inputSchema: { repo: z.string() } }, async ({ repo }) => {
        calls.fetch.push(repo);
        return { content: [{ type: 'text', text: 'ok' }], structuredContent: { commit: `${repo}@1` } };
      });
      server.registerTool('build', { inputSchema: { commit: z.string() } }, async ({ commit }) => {
        calls.build.push(commit);
        if (failing) throw new Error('compiler crashed');
        return { content: [{ type: 'text', text: 'ok' }], structuredContent: { file: `${commit}.tgz` } };
      });
      server.registerTool('publish', { inputSchema: { file: z.string() } }, async ({ file }) => {
        calls.publish.push(file);
        return { content: [{ type: 'text', text: 'ok' }] };
      });
      return server.use(Release);
    });
    try {
      const failed = (await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
      expect(status(failed)).toBe('failed');
      await expect(rerun(client, { runId: runMeta(failed).id, fromStep: 'publish' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("never completed the steps before 'publish'"),
      });
      failing = false;
      const fixed = await rerun(client, { runId: runMeta(failed).id, fromStep: 'build' });
      expect(status(fixed)).toBe('completed');
      expect(calls).toEqual({ fetch: ['app'], build: ['app@1', 'app@1'], publish: ['app@1.tgz'] });
    } finally {
      await client.close();
    }
  },
);

test.each(LINES.map((line) => [line.name, line] as const))(
  '%s: the rerun’s run span links to the original run’s span',
  async (_name, line) => {
    const client = await line.connect(() => releaseServer(line, { dev: true }));
    try {
      const first = (await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
      const original = runSpan(recorded.spans(), 'prompts/get release');
      await rerun(client, { runId: runMeta(first).id, fromStep: 'build' });
      const runs = recorded.spans().filter((span) => span.name === 'prompts/get release');
      expect(runs).toHaveLength(2);
      const again = runs.find((span) => span !== original)!;
      expect(
        again.spanContext().traceId === original.spanContext().traceId && again.spanContext().spanId === original.spanContext().spanId,
      ).toBe(false);
      expect(
        again.links.map((link) => ({
          traceId: link.context.traceId,
          spanId: link.context.spanId,
          kind: link.attributes?.['mcpflow.link.kind'],
        })),
      ).toEqual([{ traceId: original.spanContext().traceId, spanId: original.spanContext().spanId, kind: 'rerun' }]);
      // The rerun from 'build' has no fetch step span: that tool did not run.
      const steps = recorded.spans().filter((span) => span.parentSpanContext?.spanId === again.spanContext().spanId);
      expect(steps.map((span) => span.name)).toEqual(['execute_tool build', 'execute_tool publish']);
    } finally {
      await client.close();
    }
  },
);

describe.each(MATRIX)('$label, not in dev mode', ({ line, transport }) => {
  const saved = process.env.MCPFLOW_DEV;
  afterEach(() => {
    if (saved === undefined) delete process.env.MCPFLOW_DEV;
    else process.env.MCPFLOW_DEV = saved;
  });

  test('mcpflow/rerun is -32601 Method not found, and results name no run', async () => {
    delete process.env.MCPFLOW_DEV;
    const client = await line.connect(() => releaseServer(line, {}), { transport });
    try {
      const result = (await client.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
      expect(result._meta).not.toHaveProperty(['mcpflow/run']);
      expect(await refusedCode(rerun(client, { runId: 'any' }))).toBe(-32601);
    } finally {
      await client.close();
    }
  });

  test('dev: false wins over MCPFLOW_DEV=1; MCPFLOW_DEV=1 alone turns dev mode on', async () => {
    process.env.MCPFLOW_DEV = '1';
    const off = await line.connect(() => releaseServer(line, { dev: false }), { transport });
    try {
      expect(await refusedCode(rerun(off, { runId: 'any' }))).toBe(-32601);
    } finally {
      await off.close();
    }
    const on = await line.connect(() => releaseServer(line, {}), { transport });
    try {
      const result = (await on.getPrompt({ name: 'release', arguments: { repo: 'app' } })) as RunResult;
      expect(status(await rerun(on, { runId: runMeta(result).id }))).toBe('completed');
    } finally {
      await on.close();
    }
  });
});

test('a dev option that is not a boolean is refused when the server is made, naming the option', () => {
  for (const line of LINES)
    expect(() => new line.WorkflowServer({ name: 'x', version: '1' }, { dev: 'true' as never })).toThrow(
      'WorkflowServer option dev must be true or false (got "true").',
    );
});
