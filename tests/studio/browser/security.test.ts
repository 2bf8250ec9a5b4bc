// The studio refuses what the token and Host checks must refuse, seen from a real browser: the
// page without its token, a wrong token, an API call without the header, and a page reached by a
// name that is not loopback (DNS rebinding: the name resolves to 127.0.0.1, the token is right).
import type { Browser } from 'playwright-core';
import { fixtureServer, launchChromium, startStudioOn, type Studio } from './studio-session';

const REBOUND = 'rebind.example';
let browser: Browser;
let studio: Studio;

beforeAll(async () => {
  browser = await launchChromium([`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`]);
  studio = await startStudioOn('stdio', fixtureServer, ['--sdk', '2']);
});
afterAll(async () => {
  await studio?.close();
  await browser?.close();
});

it('serves the page with its token, and answers 403 without it, with a wrong one, and to an API call without the header', async () => {
  const page = await browser.newPage();
  try {
    await expect(page.goto(studio.url).then((response) => response?.status())).resolves.toBe(200);
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'charge_card', exact: true }).waitFor();
  } finally {
    await page.close();
  }
  // A browser that never opened the page's URL has no token cookie (one that did may reload: browser/hardening.test.ts).
  const context = await browser.newContext();
  const stranger = await context.newPage();
  try {
    await expect(stranger.goto(`${studio.origin}/`).then((response) => response?.status())).resolves.toBe(403);
    await expect(
      stranger.goto(`${studio.origin}/?token=${'A'.repeat(studio.token.length)}`).then((response) => response?.status()),
    ).resolves.toBe(403);
    await expect(stranger.goto(`${studio.origin}/api/workflows`).then((response) => response?.status())).resolves.toBe(403);
    const withHeader = await stranger.request.get(`${studio.origin}/api/workflows`, { headers: { 'x-mcpflow-token': studio.token } });
    expect(withHeader.status()).toBe(200);
  } finally {
    await context.close();
  }
});

it('refuses a page reached by a name that is not loopback, token and all (DNS rebinding)', async () => {
  const page = await browser.newPage();
  try {
    const response = await page.goto(`http://${REBOUND}:${studio.port}/?token=${studio.token}`);
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('navigation', { name: 'Workflows' }).count()).resolves.toBe(0);
  } finally {
    await page.close();
  }
});
