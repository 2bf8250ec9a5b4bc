import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inflateRawSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { GetPromptResult } from '@modelcontextprotocol/server';
import { getPrompt, manualClient as connectManually, paused, startInstance, stopInstances, type Instance } from './instances';

/**
 * Pause and resume across processes, as behind a load balancer: each instance is a separate node
 * process serving protocol 2026-07-28 over stateless HTTP with the same state keys, and its own
 * per-process tool call counts show which steps ran where.
 */
const KEY = 'the fleet-wide state key, at least 32 bytes long';
const NEW_KEY = 'a newer key, rotated in first: 32 bytes or more';
const SECRET = 'sk_live_TOPSECRET_9f8e7d';

let a: Instance;
let b: Instance;
let shortLived: Instance;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  // b has rotated a new key in: it seals with NEW_KEY and still opens what a sealed with KEY.
  [a, b, shortLived] = await Promise.all([
    startInstance({ keys: [KEY] }),
    startInstance({ keys: [NEW_KEY, KEY] }),
    startInstance({ keys: [KEY], ttlSeconds: 1 }),
  ]);
}, 60_000);
afterAll(stopInstances);
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
const connect = (instance: Instance) => connectManually(instance.url, closers);

const args = { project: 'mcp tester', task: 'Fix the login bug' };
const answer = { 'added/project': { action: 'accept', content: { project: 'MCP Tester (archive)' } } };

test('the first round is served by one process and the retry by another; no step runs twice', async () => {
  const [before, beforeB] = [await a.counts(), await b.counts()];
  const first = paused(await getPrompt(await connect(a), { name: 'add_project_task', arguments: args }));
  expect(Object.keys(first.inputRequests ?? {})).toEqual(['added/project']);
  expect(first.inputRequests?.['added/project']).toMatchObject({
    method: 'elicitation/create',
    params: { message: "Which project page should 'Fix the login bug' go on?" },
  });

  const final = (await getPrompt(await connect(b), {
    name: 'add_project_task',
    arguments: args,
    inputResponses: answer,
    requestState: first.requestState,
  })) as GetPromptResult;
  expect(final.messages.at(-1)).toEqual({
    role: 'user',
    content: { type: 'text', text: 'Result of add_task:\n{"ok":true,"page":"MCP Tester (archive)"}' },
  });
  expect(final._meta?.['mcpflow/execution']).toMatchObject({
    status: 'completed',
    rounds: 1,
    questions: [{ key: 'added/project', status: 'answered', attempts: 1 }],
  });

  const [after, afterB] = [await a.counts(), await b.counts()];
  expect({ list_pages: after.list_pages - before.list_pages, add_task: after.add_task - before.add_task }).toEqual({
    list_pages: 1,
    add_task: 0,
  });
  expect({ list_pages: afterB.list_pages - beforeB.list_pages, add_task: afterB.add_task - beforeB.add_task }).toEqual({
    list_pages: 0,
    add_task: 1,
  });
});

test('behind a round-robin load balancer, a client that answers by itself completes the run across both processes', async () => {
  const targets = [a, b];
  let next = 0;
  const balancer: Server = createServer((request, response) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      const isPrompt = body.length > 0 && (JSON.parse(body.toString()) as { method?: string }).method === 'prompts/get';
      const target = isPrompt ? targets[next++ % targets.length] : a;
      const upstream = await fetch(target.url, {
        method: request.method,
        headers: request.headers as Record<string, string>,
        body: body.length ? body : undefined,
      });
      response.writeHead(upstream.status, Object.fromEntries(upstream.headers));
      response.end(Buffer.from(await upstream.arrayBuffer()));
    })();
  });
  await new Promise<void>((resolve) => balancer.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => balancer.close(resolve)));

  const [before, beforeB] = [await a.counts(), await b.counts()];
  const client = new Client(
    { name: 'pause-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities: { elicitation: { form: {} } } },
  );
  const asked: unknown[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params);
    return { action: 'accept', content: { project: 'MCP Tester' } };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(balancer.address() as AddressInfo).port}/mcp`)));
  closers.push(() => client.close());
  const result = await client.getPrompt({ name: 'add_project_task', arguments: args });
  expect(asked).toHaveLength(1);
  expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed', rounds: 1 });
  const [after, afterB] = [await a.counts(), await b.counts()];
  expect(after.list_pages - before.list_pages + afterB.list_pages - beforeB.list_pages).toBe(1);
  expect(after.add_task - before.add_task + afterB.add_task - beforeB.add_task).toBe(1);
  expect(after.list_pages - before.list_pages).toBe(1); // the first round went to a …
  expect(afterB.add_task - beforeB.add_task).toBe(1); // … and the retry to b
});

describe('a state the server will not resume from is InvalidParams, and nothing runs', () => {
  let state: string;
  beforeAll(async () => {
    state = paused(await getPrompt(await connect(a), { name: 'add_project_task', arguments: args })).requestState;
  });

  const refused = async (instance: Instance, params: Record<string, unknown>, message: RegExp) => {
    const before = await instance.counts();
    const attempt = getPrompt(await connect(instance), { inputResponses: answer, ...params });
    await expect(attempt).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(message) });
    expect(await instance.counts()).toEqual(before);
  };

  test('tampered', async () => {
    const bytes = Buffer.from(state, 'base64url');
    bytes[bytes.length - 30] ^= 0x40;
    await refused(
      b,
      { name: 'add_project_task', arguments: args, requestState: bytes.toString('base64url') },
      /add_project_task: requestState rejected: it was altered, forged/,
    );
    await refused(
      b,
      { name: 'add_project_task', arguments: args, requestState: 'not a state' },
      /requestState rejected: it is not base64url text/,
    );
  });

  test('for another prompt', async () => {
    await refused(
      b,
      { name: 'add_private_task', arguments: { ...args, api_key: 'k' }, requestState: state },
      /add_private_task: requestState rejected: it was altered, forged, sealed for another prompt or other arguments/,
    );
  });

  test('for other arguments', async () => {
    await refused(
      b,
      { name: 'add_project_task', arguments: { ...args, task: 'Delete everything' }, requestState: state },
      /sealed for another prompt or other arguments/,
    );
  });

  test('sealed with a key this instance does not hold', async () => {
    const sealedByB = paused(await getPrompt(await connect(b), { name: 'add_project_task', arguments: args })).requestState;
    await refused(
      a,
      { name: 'add_project_task', arguments: args, requestState: sealedByB },
      /or sealed with a key this server does not hold/,
    );
  });

  test('expired', async () => {
    const shortState = paused(await getPrompt(await connect(shortLived), { name: 'add_project_task', arguments: args })).requestState;
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await refused(
      shortLived,
      { name: 'add_project_task', arguments: args, requestState: shortState },
      /requestState rejected: it expired \(states live 1 s\)/,
    );
  });
});

test('a sensitive prompt argument never appears in the requestState bytes, in any form', async () => {
  const privateArgs = { project: 'mcp tester', task: 'Fix the login bug', api_key: SECRET };
  const first = paused(await getPrompt(await connect(a), { name: 'add_private_task', arguments: privateArgs }));
  const bytes = Buffer.from(first.requestState, 'base64url');
  const views = [
    first.requestState,
    bytes.toString('latin1'),
    bytes.toString('utf8'),
    bytes.toString('hex'),
    bytes.toString('base64'),
    bytes.toString('base64url'),
  ];
  try {
    views.push(inflateRawSync(bytes.subarray(23, bytes.length - 16)).toString('latin1'));
  } catch {
    // Not deflate data: the payload is encrypted, as it should be.
  }
  const forms = [
    SECRET,
    JSON.stringify(SECRET),
    encodeURIComponent(SECRET),
    Buffer.from(SECRET).toString('base64'),
    Buffer.from(SECRET).toString('base64url'),
    Buffer.from(SECRET).toString('hex'),
    SECRET.slice(4, 20),
  ];
  for (const view of views) for (const form of forms) expect(view).not.toContain(form);
  expect(JSON.stringify(first)).not.toContain('TOPSECRET');

  const final = (await getPrompt(await connect(b), {
    name: 'add_private_task',
    arguments: privateArgs,
    inputResponses: { 'added/project': { action: 'accept', content: { project: 'MCP Tester' } } },
    requestState: first.requestState,
  })) as GetPromptResult;
  expect(final._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  // The echoed secret, sealed in a binding and opened by the other process, is still redacted.
  expect(JSON.stringify(final)).not.toContain('TOPSECRET');
  expect(JSON.stringify(final.messages)).toContain('session-of-[redacted]');
});
