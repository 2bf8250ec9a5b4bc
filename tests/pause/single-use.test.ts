import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from '@modelcontextprotocol/client';
import { createMcpHandler, type GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { WorkflowServer, redisReplayGuard, type ReplayGuard, type WorkflowServerOptions } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, askUser, promptArg } from '@mcpflow/decorators';
import { AddProjectTaskByName } from './project-workflow';
import { servedOnLoopback } from '../helpers/loopback-handler';

/**
 * DESIGN §2.8 "Single use", as a client replaying a `requestState` tries it over protocol
 * 2026-07-28: the first resume of a paused round consumes it; any later resume of that round — a
 * replay after the run completed, an accept after a decline, a fresh answer after a refused one —
 * is `InvalidParams` naming the cause, and no tool runs again.
 */

const KEYS = ['the single-use test key, at least 32 bytes'];
const choices = ['MCP Tester', 'MCP Tester (archive)'];
const args = { project: 'mcp tester', task: 'Fix the login bug' };
const accept = (project: string) => ({ 'added/project': { action: 'accept', content: { project } } });

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A stateless 2.x endpoint (a server per request, as behind createMcpHandler) counting its tool calls in `calls`. */
async function endpoint(calls: string[], options: WorkflowServerOptions = { pause: { keys: KEYS } }): Promise<URL> {
  const handler = createMcpHandler(
    () => {
      const server = new WorkflowServer({ name: 'projects', version: '1.0.0' }, options);
      server.registerTool('list_pages', { inputSchema: z.object({ query: z.string().optional() }) }, async () => {
        calls.push('list_pages');
        return { content: [{ type: 'text', text: JSON.stringify({ names: choices }) }], structuredContent: { names: choices } };
      });
      server.registerTool('add_task', { inputSchema: z.object({ project: z.string(), task: z.string() }) }, async ({ project }) => {
        calls.push('add_task');
        return { content: [{ type: 'text', text: JSON.stringify({ ok: true, page: project }) }] };
      });
      return server.use(AddProjectTaskByName, Approve);
    },
    { legacy: 'reject' },
  );
  return servedOnLoopback(handler, closers);
}

type Round = GetPromptResult | InputRequiredResult;

/**
 * A 2.x client pinned to 2026-07-28 that hands input_required back instead of answering it itself,
 * calling each workflow through `method`: its prompt, or its tool.
 */
async function manualClient(
  url: URL,
  method: 'prompts/get' | 'tools/call' = 'prompts/get',
): Promise<(params: Record<string, unknown>) => Promise<Round>> {
  const client = new Client(
    { name: 'replayer', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { form: {} } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  closers.push(() => client.close());
  return async (params) => (await client.request({ method, params } as never, { allowInputRequired: true } as never)) as Round;
}

function paused(round: Round): string {
  const state = (round as InputRequiredResult).requestState;
  if ((round as InputRequiredResult).resultType !== 'input_required' || typeof state !== 'string')
    throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
  return state;
}

const replayed = { code: -32602, message: expect.stringMatching(/requestState rejected: it was used already/) };

const FACES = [
  { face: 'prompt', method: 'prompts/get', called: 'Prompt' },
  { face: 'tool', method: 'tools/call', called: 'Tool' },
] as const;

test.each(FACES)(
  'through its $face, a state resumed once cannot be resumed again: the replay is InvalidParams, and no tool runs twice',
  async ({ method, called }) => {
    const calls: string[] = [];
    const call = await manualClient(await endpoint(calls), method);
    const state = paused(await call({ name: 'add_project_task', arguments: args }));
    const done = (await call({
      name: 'add_project_task',
      arguments: args,
      inputResponses: accept('MCP Tester'),
      requestState: state,
    })) as GetPromptResult;
    expect(done._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(calls).toEqual(['list_pages', 'add_task']);

    await expect(
      call({ name: 'add_project_task', arguments: args, inputResponses: accept('MCP Tester (archive)'), requestState: state }),
    ).rejects.toMatchObject({
      code: -32602,
      message:
        `${called} add_project_task: requestState rejected: it was used already: a requestState resumes its run once (a replayed retry, or a second answer to the same question is refused). ` +
        `Answer the questions of the latest input_required result, or retry ${method} 'add_project_task' without requestState to start over.`,
    });
    expect(calls).toEqual(['list_pages', 'add_task']);
  },
);

test.each(FACES)('through its $face, a declined question cannot be accepted later on the same state', async ({ method }) => {
  const calls: string[] = [];
  const call = await manualClient(await endpoint(calls), method);
  const state = paused(await call({ name: 'add_project_task', arguments: args }));
  const declined = (await call({
    name: 'add_project_task',
    arguments: args,
    inputResponses: { 'added/project': { action: 'decline' } },
    requestState: state,
  })) as GetPromptResult;
  expect(declined._meta?.['mcpflow/execution']).toMatchObject({ status: 'cancelled' });
  await expect(
    call({ name: 'add_project_task', arguments: args, inputResponses: accept('MCP Tester'), requestState: state }),
  ).rejects.toMatchObject(replayed);
  expect(calls).toEqual(['list_pages']);
});

@Workflow({ name: 'approve', description: 'Approve a change with a code', arguments: { change: z.string() } })
class Approve {
  @Step({
    tool: 'add_task',
    args: { project: askUser('Code for {change}?', { schema: z.string().regex(/^\d{4}$/), attempts: 2 }), task: promptArg('change') },
  })
  @Bind('approved')
  approved!: unknown;
}

test('a refused answer uses up an attempt for good: replaying the earlier state does not give the attempts back', async () => {
  const calls: string[] = [];
  const prompt = await manualClient(await endpoint(calls));
  const code = (text: string) => ({ 'approved/project': { action: 'accept', content: { project: text } } });
  const first = paused(await prompt({ name: 'approve', arguments: { change: 'CH-1' } }));
  const second = paused(
    await prompt({ name: 'approve', arguments: { change: 'CH-1' }, inputResponses: code('wrong'), requestState: first }),
  );
  // Both attempts spent would hand off; replaying the first state instead, to try again from one attempt used, is refused.
  await expect(
    prompt({ name: 'approve', arguments: { change: 'CH-1' }, inputResponses: code('also wrong'), requestState: first }),
  ).rejects.toMatchObject(replayed);
  const last = (await prompt({
    name: 'approve',
    arguments: { change: 'CH-1' },
    inputResponses: code('still wrong'),
    requestState: second,
  })) as GetPromptResult;
  expect(last._meta?.['mcpflow/execution']).toMatchObject({ status: 'handoff', questions: [{ status: 'refused', attempts: 2 }] });
  expect(calls).toEqual([]);
});

test('by default every server a process builds shares one guard: a replay to a server built for another request is refused', async () => {
  const calls: string[] = [];
  // Two endpoints, each building a server per request from options written inline: still one guard.
  const first = await manualClient(await endpoint(calls, { pause: { keys: KEYS } }));
  const second = await manualClient(await endpoint(calls, { pause: { keys: [...KEYS] } }));
  const state = paused(await first({ name: 'add_project_task', arguments: args }));
  await first({ name: 'add_project_task', arguments: args, inputResponses: accept('MCP Tester'), requestState: state });
  await expect(
    second({ name: 'add_project_task', arguments: args, inputResponses: accept('MCP Tester'), requestState: state }),
  ).rejects.toMatchObject(replayed);
  expect(calls).toEqual(['list_pages', 'add_task']);
});

test('without pause options the process key and guard are shared too: a replay to another server of the process is refused', async () => {
  const calls: string[] = [];
  const first = await manualClient(await endpoint(calls, {}));
  const second = await manualClient(await endpoint(calls, {}));
  const state = paused(await first({ name: 'add_project_task', arguments: args }));
  const done = (await second({
    name: 'add_project_task',
    arguments: args,
    inputResponses: accept('MCP Tester'),
    requestState: state,
  })) as GetPromptResult;
  expect(done._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  await expect(
    first({ name: 'add_project_task', arguments: args, inputResponses: accept('MCP Tester'), requestState: state }),
  ).rejects.toMatchObject(replayed);
  expect(calls).toEqual(['list_pages', 'add_task']);
});

test('a guard that cannot answer refuses the resume with a server error in its own words, never its store’s', async () => {
  const calls: string[] = [];
  const storeError = () => new Error('connect ECONNREFUSED redis://admin:hunter2@10.0.0.7:6379');
  // Redis down behind the Redis guard, and a guard of the user's own that fails with its store's text.
  const unreachable = redisReplayGuard({ sendCommand: () => Promise.reject(storeError()) });
  const custom: ReplayGuard = { consume: () => Promise.reject(storeError()) };
  for (const replayGuard of [unreachable, custom]) {
    const prompt = await manualClient(await endpoint(calls, { pause: { keys: KEYS, replayGuard } }));
    const state = paused(await prompt({ name: 'add_project_task', arguments: args }));
    const error = (await prompt({
      name: 'add_project_task',
      arguments: args,
      inputResponses: accept('MCP Tester'),
      requestState: state,
    }).catch((caught: unknown) => caught)) as Error & { code: number };
    expect(error.code).toBe(-32603);
    expect(error.message).toMatch(
      /^Prompt add_project_task: mcpflow replay guard: .*the resume is refused rather than risk running its steps twice\.$/,
    );
    expect(error.message).not.toMatch(/hunter2|10\.0\.0\.7|ECONNREFUSED/);
  }
  expect(calls).toEqual(['list_pages', 'list_pages']);
});
