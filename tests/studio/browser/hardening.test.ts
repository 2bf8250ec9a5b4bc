// The studio's hardening seen from Chromium (issue 40 §7; the HTTP side is in ../hardening-http.test.ts):
// the token leaves the address bar once the page loaded, and a reload still works (the page's cookie).
import type { Browser } from 'playwright-core';
import { join } from 'node:path';
import { launchChromium, startStudioOn, type Studio } from './studio-session';

let browser: Browser;
let studio: Studio;

beforeAll(async () => {
  browser = await launchChromium();
  studio = await startStudioOn('stdio', join(__dirname, '..', 'hostile-server.js'), []);
});
afterAll(async () => {
  await studio?.close();
  await browser?.close();
});

it('takes the token out of the address bar after load, and the page still works after a reload', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const workflow = page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'flood', exact: true });
    await workflow.waitFor();
    expect(page.url()).toBe(`${studio.origin}/`);
    expect(page.url()).not.toContain(studio.token);
    // The token's cookie is the page's, and no script of it can read it.
    await expect(page.evaluate('document.cookie')).resolves.toBe('');
    const [cookie] = await page.context().cookies(studio.origin);
    expect(cookie).toMatchObject({ name: `mcpflow-studio-${studio.port}`, value: studio.token, httpOnly: true, sameSite: 'Strict' });
    await page.reload();
    await workflow.waitFor();
    expect(page.url()).toBe(`${studio.origin}/`);
  } finally {
    await page.close();
  }
});
