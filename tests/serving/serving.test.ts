import { INITIALIZE_2025, MCP_POST_HEADERS, initialize, rawRequest } from './raw-http';
import { lineV1, lineV2, type Line } from './lines';
import type { HttpServing } from '@mcpflow/core/v1';

/** Waits, at most `limitMs`, until `condition` holds; a functional wait, not a timing assertion. */
async function eventually(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each([lineV1, lineV2])('serveHttp on $name', (line: Line) => {
  let serving: HttpServing | undefined;
  afterEach(async () => {
    await serving?.close();
    serving = undefined;
  });

  test('listens on 127.0.0.1 and serves a 2025 client in a session', async () => {
    serving = await line.serveHttp({ port: 0 });
    expect(serving.url.hostname).toBe('127.0.0.1');
    expect(serving.url.pathname).toBe('/mcp');
    const client = await line.connect2025(serving.url);
    expect(await client.promptText(line.prompt.name, line.prompt.args)).toContain(line.prompt.answer);
    expect(serving.sessions).toBe(1);
    await client.close();
  });

  test('refuses a foreign Host (DNS rebinding) before creating any session', async () => {
    serving = await line.serveHttp({ port: 0 });
    const rebound = await initialize(serving.url, { host: `attacker.example:${serving.url.port}` });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toMatch(/Host/);
    expect(serving.sessions).toBe(0);
    expect((await initialize(serving.url, { host: `localhost:${serving.url.port}` })).status).toBe(200);
  });

  test('refuses a foreign Origin and accepts a local one', async () => {
    serving = await line.serveHttp({ port: 0 });
    const foreign = await initialize(serving.url, { origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toMatch(/Origin/);
    expect(serving.sessions).toBe(0);
    expect((await initialize(serving.url, { origin: 'http://localhost:5173' })).status).toBe(200);
  });

  test('refuses a body over the limit with 413, and keeps serving', async () => {
    serving = await line.serveHttp({ port: 0 });
    const padding = 'x'.repeat(5 * 1024 * 1024);
    const huge = JSON.stringify({ ...JSON.parse(INITIALIZE_2025), padding });
    expect((await rawRequest(serving.url, { headers: MCP_POST_HEADERS, body: huge })).status).toBe(413);
    expect(serving.sessions).toBe(0);
    expect((await initialize(serving.url)).status).toBe(200);
  });

  test('a session flood stays within maxSessions', async () => {
    serving = await line.serveHttp({ port: 0, maxSessions: 5 });
    const flood = await Promise.all(Array.from({ length: 40 }, () => initialize(serving!.url)));
    const refused = flood.filter((response) => response.status === 503);
    expect(flood.filter((response) => response.status === 200)).toHaveLength(5);
    expect(refused).toHaveLength(35);
    expect(JSON.parse(refused[0].body).error.message).toMatch(/at most 5/);
    expect(serving.sessions).toBe(5);
  });

  test('closes idle sessions, which makes room for new ones', async () => {
    serving = await line.serveHttp({ port: 0, maxSessions: 2, sessionIdleTimeoutMs: 200 });
    const opened = await Promise.all([initialize(serving.url), initialize(serving.url)]);
    await eventually(() => serving!.sessions === 0);
    const closedId = opened[0].headers['mcp-session-id'] as string;
    const stale = await rawRequest(serving.url, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': closedId } });
    expect(stale.status).toBe(404);
    expect(JSON.parse(stale.body).error.message).toMatch(/initialize a new session/);
    const client = await line.connect2025(serving.url);
    expect(await client.promptText(line.prompt.name, line.prompt.args)).toContain(line.prompt.answer);
    await client.close();
  });

  test('never closes a session while its request is in progress', async () => {
    serving = await line.serveHttp({ port: 0, sessionIdleTimeoutMs: 200 });
    const client = await line.connect2025(serving.url);
    // The 2025 client holds its notification stream (GET) open: a connected client is not idle.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(serving.sessions).toBe(1);
    expect(await client.promptText(line.prompt.name, line.prompt.args)).toContain(line.prompt.answer);
    await client.close();
    await eventually(() => serving!.sessions === 0);
  });

  test('answers any other path with 404', async () => {
    serving = await line.serveHttp({ port: 0 });
    expect((await initialize(new URL('/other', serving.url))).status).toBe(404);
  });

  test('refuses to listen beyond loopback without allowedHosts', async () => {
    await expect(line.serveHttp({ host: '0.0.0.0', port: 0 })).rejects.toThrow(/without allowedHosts.*Fix: pass allowedHosts/);
  });
});
