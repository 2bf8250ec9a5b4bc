import 'reflect-metadata';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from '@modelcontextprotocol/client';
import type { GetPromptResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { WorkflowServer, memoryReplayGuard, serveHttp } from '@mcpflow/core/v2';
import { AddProjectTaskByName } from '../pause/project-workflow';

/**
 * Issue 31.4, DESIGN §1 "Load limits": the memory replay guard keeps a quota per client
 * (`maxEntriesPerClient`), so one unauthenticated client that keeps declining (each decline
 * consumes a round) is refused once it holds its share, and every other client still resumes.
 * Two real 2.x clients pinned to 2026-07-28 (stateless: the client is told by its address), one
 * from 127.0.0.2 and one from 127.0.0.1, against `serveHttp`.
 */

const KEYS = ['the replay quota test key, at least 32 bytes long'];
const args = { project: 'mcp tester', task: 'Fix the login bug' };
const names = ['MCP Tester', 'MCP Tester (archive)'];
const QUOTA = 3;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function createServer(): WorkflowServer {
  const server = new WorkflowServer(
    { name: 'projects', version: '1.0.0' },
    { pause: { keys: KEYS, replayGuard: memoryReplayGuard({ maxEntries: 100, maxEntriesPerClient: QUOTA }) } },
  );
  server.registerTool('list_pages', { inputSchema: z.object({ query: z.string().optional() }) }, async () => ({
    content: [{ type: 'text', text: JSON.stringify({ names }) }],
    structuredContent: { names },
  }));
  server.registerTool('add_task', { inputSchema: z.object({ project: z.string(), task: z.string() }) }, async ({ project }) => ({
    content: [{ type: 'text', text: JSON.stringify({ ok: true, page: project }) }],
  }));
  return server.use(AddProjectTaskByName);
}

/** `fetch` over node:http from `localAddress`, so two clients on one machine come from two addresses. */
function fetchFrom(localAddress: string): typeof fetch {
  return (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = Object.fromEntries(new Headers(init?.headers));
    return new Promise<Response>((resolve, reject) => {
      const outgoing = request(
        url,
        { method: init?.method ?? 'GET', headers, localAddress, signal: init?.signal ?? undefined },
        (incoming) => {
          const responseHeaders = new Headers();
          for (let index = 0; index < incoming.rawHeaders.length; index += 2)
            responseHeaders.append(incoming.rawHeaders[index], incoming.rawHeaders[index + 1]);
          const status = incoming.statusCode ?? 500;
          const body = [204, 205, 304].includes(status) ? null : (Readable.toWeb(incoming) as ReadableStream);
          resolve(new Response(body, { status, headers: responseHeaders }));
        },
      );
      outgoing.on('error', reject);
      outgoing.end(typeof init?.body === 'string' ? init.body : undefined);
    });
  };
}

type Round = GetPromptResult | InputRequiredResult;

/** A 2.x client pinned to 2026-07-28, from `localAddress`, that hands input_required back to the test. */
async function clientFrom(url: URL, localAddress: string): Promise<(params: Record<string, unknown>) => Promise<Round>> {
  const client = new Client(
    { name: `client-${localAddress}`, version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { form: {} } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url, { fetch: fetchFrom(localAddress) }));
  closers.push(() => client.close());
  return async (params) =>
    (await client.request({ method: 'prompts/get', params } as never, { allowInputRequired: true } as never)) as Round;
}

function paused(round: Round): string {
  const state = (round as InputRequiredResult).requestState;
  if ((round as InputRequiredResult).resultType !== 'input_required' || typeof state !== 'string')
    throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
  return state;
}

/** Starts a run and resumes it with `answer`: the resume consumes one round of the guard. */
async function startAndResume(call: (params: Record<string, unknown>) => Promise<Round>, answer: object): Promise<Round> {
  const requestState = paused(await call({ name: 'add_project_task', arguments: args }));
  return call({ name: 'add_project_task', arguments: args, inputResponses: { 'added/project': answer }, requestState });
}

const decline = { action: 'decline' };
const accept = { action: 'accept', content: { project: 'MCP Tester' } };
const status = (round: Round) => (round as GetPromptResult)._meta?.['mcpflow/execution'];

test('one client that floods the memory guard with decline-resumes is refused at its quota, naming the option; another client still resumes', async () => {
  const serving = await serveHttp(createServer, { port: 0, legacy: 'reject' });
  closers.push(() => serving.close());
  const flooder = await clientFrom(serving.url, '127.0.0.2');
  const other = await clientFrom(serving.url, '127.0.0.1');

  for (let index = 0; index < QUOTA; index += 1)
    expect(status(await startAndResume(flooder, decline))).toMatchObject({ status: 'cancelled' });
  const refusal = expect.objectContaining({
    message: expect.stringContaining(
      `this client already holds ${QUOTA} resumed rounds whose states have not expired (memoryReplayGuard maxEntriesPerClient), so its resume is refused; other clients still resume.`,
    ),
  });
  await expect(startAndResume(flooder, decline)).rejects.toEqual(refusal);

  expect(status(await startAndResume(other, accept))).toMatchObject({ status: 'completed' });
  expect(status(await startAndResume(other, decline))).toMatchObject({ status: 'cancelled' });
  await expect(startAndResume(flooder, accept)).rejects.toEqual(refusal);
});
