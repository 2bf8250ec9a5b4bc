import { connect, type Socket } from 'node:net';
import { INITIALIZE_2025, MCP_POST_HEADERS, initialize, rawRequest, type RawResponse } from './raw-http';
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

/** A ping in session `id`, as a 2025 client sends one. */
function ping(url: URL, id: string): Promise<RawResponse> {
  const headers = { ...MCP_POST_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  return rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }) });
}

/** A POST whose headers announce an initialize body of which only the first bytes are sent, once the server has them. */
function startSlowPost(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const head = [
        `POST ${url.pathname} HTTP/1.1`,
        `Host: ${url.host}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Content-Length: ${Buffer.byteLength(INITIALIZE_2025)}`,
      ];
      socket.write(`${head.join('\r\n')}\r\n\r\n${INITIALIZE_2025.slice(0, 10)}`, () => setTimeout(() => resolve(socket), 100));
    });
    socket.on('error', reject);
  });
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

  test('a malformed Host (evil.example@localhost) is answered 400, with no stack and nothing on stderr, on every request', async () => {
    const reported: Error[] = [];
    serving = await line.serveHttp({ port: 0, onerror: (error) => reported.push(error) });
    const port = serving.url.port;
    for (const host of [`evil.example@localhost:${port}`, `evil.example@localhost:${port}`, `localhost:${port}/admin`]) {
      const refused = await initialize(serving.url, { host });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).error).toEqual({ code: -32000, message: `Invalid Host header: ${host} is not a host name and port` });
    }
    expect(reported).toEqual([]);
    expect(serving.sessions).toBe(0);
  });

  test('refuses a foreign Origin and accepts a local one', async () => {
    serving = await line.serveHttp({ port: 0 });
    const foreign = await initialize(serving.url, { origin: 'https://attacker.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toMatch(/Origin/);
    expect(serving.sessions).toBe(0);
    expect((await initialize(serving.url, { origin: 'http://localhost:5173' })).status).toBe(200);
  });

  test('an allowedOrigins entry written as an origin is compared on scheme, host and port', async () => {
    serving = await line.serveHttp({ port: 0, allowedOrigins: ['https://app.example:8443'] });
    for (const origin of ['http://app.example:8443', 'https://app.example', 'https://app.example:9443', 'https://evil.example:8443']) {
      const refused = await initialize(serving.url, { origin });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.message).toBe(`Invalid Origin: ${origin} may not call this server`);
    }
    expect(serving.sessions).toBe(0);
    expect((await initialize(serving.url, { origin: 'https://app.example:8443' })).status).toBe(200);
  });

  test('by default a page of this machine over HTTP is allowed on any port; another scheme, a look-alike host, null and a foreign origin are refused', async () => {
    serving = await line.serveHttp({ port: 0 });
    for (const origin of [
      'https://localhost:5173',
      'https://127.0.0.1',
      'ws://localhost:5173',
      'http://evil.localhost.example',
      'http://localhost.evil.example:5173',
      'null',
      'http://192.0.2.10:5173',
      'https://app.example.com',
    ]) {
      const refused = await initialize(serving.url, { origin });
      expect(refused.status).toBe(403);
      expect([`Invalid Origin: ${origin} may not call this server`, `Invalid Origin header: ${origin}`]).toContain(
        JSON.parse(refused.body).error.message,
      );
    }
    expect(serving.sessions).toBe(0);
    for (const origin of ['http://localhost:5173', 'http://localhost', 'http://127.0.0.1:8080', 'http://[::1]:3000'])
      expect((await initialize(serving.url, { origin })).status).toBe(200);
  });

  test('an allowedOrigins entry https://app.example.com:8443 admits neither its :443 nor http:', async () => {
    serving = await line.serveHttp({ port: 0, allowedOrigins: ['https://app.example.com:8443'] });
    for (const origin of [
      'https://app.example.com:443',
      'https://app.example.com',
      'http://app.example.com:8443',
      'http://localhost:5173',
    ]) {
      const refused = await initialize(serving.url, { origin });
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.body).error.message).toBe(`Invalid Origin: ${origin} may not call this server`);
    }
    expect((await initialize(serving.url, { origin: 'https://app.example.com:8443' })).status).toBe(200);
  });

  test('refuses a body over the limit with 413, and keeps serving', async () => {
    serving = await line.serveHttp({ port: 0 });
    const padding = 'x'.repeat(5 * 1024 * 1024);
    const huge = JSON.stringify({ ...JSON.parse(INITIALIZE_2025), padding });
    expect((await rawRequest(serving.url, { headers: MCP_POST_HEADERS, body: huge })).status).toBe(413);
    expect(serving.sessions).toBe(0);
    expect((await initialize(serving.url)).status).toBe(200);
  });

  test('a session flood stays within maxSessions: each newcomer closes the least recently used idle session', async () => {
    serving = await line.serveHttp({ port: 0, maxSessions: 5 });
    const flood = await Promise.all(Array.from({ length: 40 }, () => initialize(serving!.url)));
    expect(flood.map((response) => response.status)).toEqual(Array.from({ length: 40 }, () => 200));
    expect(serving.sessions).toBe(5);
  });

  test('a full pool closes the idle session used least recently, and keeps the one used since', async () => {
    serving = await line.serveHttp({ port: 0, maxSessions: 2 });
    const [first, second] = [await initialize(serving.url), await initialize(serving.url)].map(
      (response) => response.headers['mcp-session-id'] as string,
    );
    // The first session is used again: the second is now the one used least recently.
    expect((await ping(serving.url, first)).status).toBe(200);
    expect((await initialize(serving.url)).status).toBe(200);
    expect(serving.sessions).toBe(2);
    expect((await ping(serving.url, first)).status).toBe(200);
    const closed = await ping(serving.url, second);
    expect(closed.status).toBe(404);
    expect(JSON.parse(closed.body).error.message).toMatch(/initialize a new session/);
  });

  test('a session with a request in progress is never closed to make room: then the pool answers 503', async () => {
    serving = await line.serveHttp({ port: 0, maxSessions: 1 });
    // A connected client holds its notification stream (GET) open: its session is busy.
    const client = await line.connect2025(serving.url);
    await eventually(() => serving!.sessions === 1);
    const refused = await initialize(serving.url);
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).error.message).toMatch(/at most 1/);
    expect(await client.promptText(line.prompt.name, line.prompt.args)).toContain(line.prompt.answer);
    await client.close();
  });

  test('slow requests hold no session: while maxSessions clients trickle their bodies, another opens a session', async () => {
    serving = await line.serveHttp({ port: 0, maxSessions: 3 });
    const slow = await Promise.all(Array.from({ length: 3 }, () => startSlowPost(serving!.url)));
    try {
      const client = await line.connect2025(serving.url);
      expect(await client.promptText(line.prompt.name, line.prompt.args)).toContain(line.prompt.answer);
      await client.close();
    } finally {
      for (const socket of slow) socket.destroy();
    }
  });

  test('requestTimeoutMs bounds a request from its first byte: a stalled body is cut off within a second of it', async () => {
    serving = await line.serveHttp({ port: 0, requestTimeoutMs: 1500 });
    const started = Date.now();
    const socket = await startSlowPost(serving.url);
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    // Node checked the bound every 30 s by default: the request then lived up to 31.5 s.
    const closedAfterMs = await new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(closedAfterMs).toBeLessThan(1500 + 1000 + 500);
    expect(serving.sessions).toBe(0);
  });

  test('connections that never send a byte are closed within requestTimeoutMs, so they cannot hold every place', async () => {
    serving = await line.serveHttp({ port: 0, maxConnections: 5, requestTimeoutMs: 1000 });
    const idle = await Promise.all(
      Array.from(
        { length: 5 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect(Number(serving!.url.port), serving!.url.hostname, () => resolve(socket.resume()));
            socket.on('error', reject);
          }),
      ),
    );
    // Node's own bounds start at a request's first byte: these sockets were held for its 30 s timeouts.
    await Promise.all(idle.map((socket) => new Promise((resolve) => socket.once('close', resolve))));
    expect((await initialize(serving.url)).status).toBe(200);
  });

  test('maxConnections caps the connections open at once: one more is closed unanswered, a freed place serves again', async () => {
    serving = await line.serveHttp({ port: 0, maxConnections: 2 });
    const held = await Promise.all([startSlowPost(serving.url), startSlowPost(serving.url)]);
    await expect(initialize(serving.url)).rejects.toThrow(/socket hang up|ECONNRESET/);
    held[0].destroy();
    let open = Infinity;
    await eventually(() => {
      serving!.httpServer.getConnections((_, count) => (open = count));
      return open < 2;
    });
    expect((await initialize(serving.url)).status).toBe(200);
    held[1].destroy();
  });

  test('a POST without a session that is not an initialize opens none', async () => {
    serving = await line.serveHttp({ port: 0, maxSessions: 1 });
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'prompts/list' });
    const refused = await rawRequest(serving.url, { headers: MCP_POST_HEADERS, body: list });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error.message).toMatch(/Mcp-Session-Id header is required; POST an initialize request/);
    const garbled = await rawRequest(serving.url, { headers: MCP_POST_HEADERS, body: '{"jsonrpc":' });
    expect(garbled.status).toBe(400);
    expect(JSON.parse(garbled.body).error).toEqual({ code: -32700, message: 'Parse error: Invalid JSON' });
    expect(serving.sessions).toBe(0);
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
