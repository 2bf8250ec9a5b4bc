import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { startStudio } from '@mcpflow/studio';
import { openStudio, STUDIO_SERVER, type StudioUnderTest } from './studio-client';

/**
 * The studio's hardening seen over HTTP (issue 40 §7): the headers every answer carries, POSTs
 * only as JSON from the page's own origin, the token's cookie, bad %-encoding, the favicon, a
 * non-loopback `--host`, and credentials of a `--url` kept out of what the studio shows. Serves
 * the built page (npm run build first). The browser's side is in browser/hardening.test.ts.
 */

const BUILT_PAGE = path.join(__dirname, '..', '..', 'packages', 'studio', 'dist', 'page');
const command = `"${process.execPath}" ${STUDIO_SERVER} --sdk 2`;

describe('studio hardening over HTTP', () => {
  let under: StudioUnderTest;
  let base: string;
  beforeAll(async () => {
    under = await openStudio({ command });
    base = `http://127.0.0.1:${under.studio.port}`;
  });
  afterAll(() => under.studio.close());

  test.each([
    ['the page', () => fetch(under.studio.url)],
    ['the API', () => fetch(`${base}/api/server`, { headers: { 'x-mcpflow-token': under.studio.token } })],
    ['a refusal', () => fetch(`${base}/api/server`)],
  ])('%s: a strict CSP, no referrer, nosniff', async (_, get) => {
    const response = await get();
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("img-src 'self' data:;");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  test('the built page has no inline script, no inline handler and no inline style for the CSP to block', () => {
    const html = readFileSync(path.join(BUILT_PAGE, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc="/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/<style\b/);
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/\sstyle=/i);
    expect(html).not.toMatch(/javascript:/i);
  });

  test.each([
    ['text/plain (a no-cors fetch of another site)', { 'content-type': 'text/plain', origin: 'http://evil.example' }],
    ['text/plain from the page itself', { 'content-type': 'text/plain', origin: 'SELF' }],
    ['a form of another site', { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' }],
    ['JSON from another origin', { 'content-type': 'application/json', origin: 'http://evil.example' }],
    ['JSON without an Origin', { 'content-type': 'application/json' }],
  ])('a POST as %s is refused with 403, token and all, and starts nothing', async (_, sent: Record<string, string>) => {
    const before = (await under.api('/api/runs')).json.runs.length;
    const headers = { ...sent, 'x-mcpflow-token': under.studio.token, ...(sent.origin === 'SELF' ? { origin: base } : {}) };
    const response = await fetch(`${base}/api/runs?token=${under.studio.token}`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ workflow: 'book_table', face: 'tool', arguments: { name: 'Eve' } }),
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toMatch(/only as application\/json|only from its own page/);
    expect((await under.api('/api/runs')).json.runs).toHaveLength(before);
  });

  test("the same POST as JSON from the page's origin starts the run", async () => {
    const started = await under.api('/api/runs', {
      method: 'POST',
      body: { workflow: 'book_table', face: 'tool', arguments: { name: 'Ada' } },
    });
    expect(started.status).toBe(200);
    expect(started.json.runId).toEqual(expect.any(String));
  });

  test('loading the page sets the token as an HttpOnly, SameSite=Strict cookie of this port; the cookie alone lets a reload in', async () => {
    const response = await fetch(under.studio.url);
    const cookie = response.headers.get('set-cookie') ?? '';
    const name = `mcpflow-studio-${under.studio.port}`;
    expect(cookie).toContain(`${name}=${under.studio.token};`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const reload = await fetch(`${base}/`, { headers: { cookie: `${name}=${under.studio.token}` } });
    expect(reload.status).toBe(200);
    expect(await reload.text()).toContain(`content="${under.studio.token}"`);
    expect((await fetch(`${base}/`, { headers: { cookie: `${name}=${'x'.repeat(43)}` } })).status).toBe(403);
    expect((await fetch(`${base}/`, { headers: { cookie: `mcpflow-studio-1=${under.studio.token}` } })).status).toBe(403);
  });

  test('malformed %-encoding in a path is a 400 that names the segment, not a 500', async () => {
    const response = await fetch(`${base}/api/runs/%E0%A4%A`, { headers: { 'x-mcpflow-token': under.studio.token } });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain('%E0%A4%A');
    expect((await under.api('/api/server')).status).toBe(200);
  });

  test('/favicon.ico is a 204 without the token (a browser asks for it on its own), not a 403', async () => {
    const response = await fetch(`${base}/favicon.ico`);
    expect(response.status).toBe(204);
  });
});

describe('studio --host and --url', () => {
  test('a host that is not loopback is refused without allowRemote, naming the flag', async () => {
    await expect(startStudio({ command, host: '0.0.0.0' })).rejects.toThrow(/--allow-remote/);
  });

  test('with allowRemote on 0.0.0.0 the printed URL is one a browser can open', async () => {
    const studio = await startStudio({ command, host: '0.0.0.0', allowRemote: true });
    try {
      expect(studio.url).toBe(`http://127.0.0.1:${studio.port}/?token=${studio.token}`);
      expect((await fetch(studio.url)).status).toBe(200);
    } finally {
      await studio.close();
    }
  });

  test("a URL's user and password go as Basic auth, --header as given; neither they nor secret query values show in what the studio says", async () => {
    const seen: { authorization?: string; custom?: string; url?: string }[] = [];
    const server = createServer((request, response) => {
      seen.push({ authorization: request.headers.authorization, custom: request.headers['x-team'] as string, url: request.url });
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const said: string[] = [];
    const studio = await startStudio({
      url: `http://alice:hunter2@127.0.0.1:${port}/mcp?api_key=sk-live-42&region=eu`,
      headers: { 'x-team': 'blue' },
      onConnection: (connection) => said.push(JSON.stringify(connection)),
    });
    try {
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]).toEqual({
        authorization: `Basic ${Buffer.from('alice:hunter2').toString('base64')}`,
        custom: 'blue',
        url: '/mcp?api_key=sk-live-42&region=eu',
      });
      const shown = JSON.stringify(studio.server()) + said.join('');
      expect(shown).toContain(`http://***:***@127.0.0.1:${port}/mcp?api_key=***&region=eu`);
      expect(shown).not.toContain('hunter2');
      expect(shown).not.toContain('alice');
      expect(shown).not.toContain('sk-live-42');
    } finally {
      await studio.close();
      server.close();
    }
  });
});

describe('studio against a hostile server (hostile-server.js)', () => {
  let under: StudioUnderTest;
  beforeAll(async () => {
    under = await openStudio({ command: `"${process.execPath}" ${path.join(__dirname, 'hostile-server.js')}` });
  });
  afterAll(() => under.studio.close());

  test('a result claiming 5,000,000 iterations becomes 200 iteration rows and a note of how many were not shown', async () => {
    const started = await under.api('/api/runs', { method: 'POST', body: { workflow: 'flood', face: 'tool', arguments: {} } });
    expect(started.status).toBe(200);
    const run = await under.finished(started.json.runId);
    const spread = run.timeline.filter((row: { step: string }) => row.step === 'spread');
    expect(spread).toHaveLength(201);
    expect(spread[0]).toMatchObject({ step: 'spread', status: 'completed', iterationsNotShown: 4_999_800 });
    expect(spread[4]).toMatchObject({ iteration: 3, status: 'failed' });
    // spread's 201 rows, the bidi step's and the 1 MB-named step's, its name cut to 200 characters and a note.
    expect(run.timeline).toHaveLength(203);
    expect(run.timeline[202].step).toMatch(/^w{200}\.\.\. \(1,048,376 more characters not kept by the studio\)$/);
  });
});
