import { serveHttp, type HttpServing } from '@mcpflow/core/v2';
import { connectV2, createGreeterV2 } from './lines';
import { initialize } from './raw-http';

let serving: HttpServing | undefined;
afterEach(async () => {
  await serving?.close();
  serving = undefined;
});

test('a 2.x client pinned to 2026-07-28 is served statelessly: no session is held', async () => {
  let built = 0;
  serving = await serveHttp(() => (built++, createGreeterV2()), { port: 0 });
  const { client, promptText, close } = await connectV2(serving.url, '2026-07-28');
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  const before = built;
  expect(await promptText('greet', { name: 'Ada' })).toMatch(
    /Calling tool make_greeting with arguments: {"name":"Ada"}\nResult of make_greeting:\nHello, Ada$/,
  );
  expect(await promptText('greet', { name: 'Bo' })).toMatch(
    /Calling tool make_greeting with arguments: {"name":"Bo"}\nResult of make_greeting:\nHello, Bo$/,
  );
  expect(built - before).toBe(2); // a server per request
  expect(serving.sessions).toBe(0);
  await close();
});

test('2025 clients of the 2.x line get sessions, a server each', async () => {
  let built = 0;
  serving = await serveHttp(() => (built++, createGreeterV2()), { port: 0 });
  const a = await connectV2(serving.url);
  const b = await connectV2(serving.url);
  expect(a.client.getNegotiatedProtocolVersion()).not.toBe('2026-07-28');
  expect(serving.sessions).toBe(2);
  const before = built;
  expect(await a.promptText('greet', { name: 'Ada' })).toMatch(
    /Calling tool make_greeting with arguments: {"name":"Ada"}\nResult of make_greeting:\nHello, Ada$/,
  );
  expect(await b.promptText('greet', { name: 'Bo' })).toMatch(
    /Calling tool make_greeting with arguments: {"name":"Bo"}\nResult of make_greeting:\nHello, Bo$/,
  );
  expect(built).toBe(before); // the session's own server answered
  await Promise.all([a.close(), b.close()]);
});

test("legacy: 'stateless' serves 2025 clients without sessions", async () => {
  serving = await serveHttp(createGreeterV2, { port: 0, legacy: 'stateless' });
  const opened = await initialize(serving.url);
  expect(opened.status).toBe(200);
  expect(opened.headers['mcp-session-id']).toBeUndefined();
  expect(serving.sessions).toBe(0);
});

test("legacy: 'reject' refuses 2025 clients and names the protocol it serves", async () => {
  const reported: Error[] = [];
  serving = await serveHttp(createGreeterV2, { port: 0, legacy: 'reject', onerror: (error) => reported.push(error) });
  const refused = await initialize(serving.url);
  expect(reported.map((error) => error.message)).toEqual([expect.stringContaining('Unsupported protocol version: 2025-11-25')]);
  expect(refused.status).toBe(400);
  expect(JSON.parse(refused.body).error).toMatchObject({ code: -32022, data: { supported: ['2026-07-28'] } });
  const { promptText, close } = await connectV2(serving.url, '2026-07-28');
  expect(await promptText('greet', { name: 'Ada' })).toMatch(
    /Calling tool make_greeting with arguments: {"name":"Ada"}\nResult of make_greeting:\nHello, Ada$/,
  );
  await close();
});
