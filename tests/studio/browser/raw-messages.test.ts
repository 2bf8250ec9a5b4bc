// A run's raw JSON-RPC messages in the page (issue 40.5, DESIGN §2.15), in a real browser against
// `mcpflow dev` and the fixture server over stdio on both SDK lines: the run view's collapsible
// "Raw messages" section shows the run's prompts/get request as the client sent it, as text.
import type { Browser, Page } from 'playwright-core';
import { fixtureServer, launchChromium, startStudioOn, type Studio } from './studio-session';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each([1, 2])('raw messages in the page, stdio server on SDK %i', (sdk) => {
  let studio: Studio;
  let page: Page;
  beforeAll(async () => {
    studio = await startStudioOn('stdio', fixtureServer, ['--sdk', String(sdk)]);
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(studio.url);
  });
  afterAll(async () => {
    await page?.close();
    await studio?.close();
  });

  it('opens Raw messages on a finished run and sees its prompts/get request, its markup as text', async () => {
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'charge_card', exact: true }).click();
    const form = page.getByRole('form', { name: 'Arguments of charge_card' });
    const amount = '<img src=x onerror="window.pwned=1">';
    await form.getByRole('textbox', { name: 'amount', exact: true }).fill(amount);
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    const run = page.getByRole('region', { name: 'Run of charge_card' }).first();
    await run.getByLabel('Status', { exact: true }).filter({ hasNotText: 'running' }).waitFor();

    const raw = run.locator('details.raw-messages');
    await raw.getByText('Raw messages', { exact: true }).click();
    const request = raw.getByLabel('Sent', { exact: true }).filter({ hasText: '"method": "prompts/get"' });
    await request.first().waitFor();
    const text = (await request.first().textContent())!;
    expect(text.startsWith('→ sent\n{')).toBe(true);
    expect(text).toContain('"name": "charge_card"');
    expect(text).toContain(JSON.stringify(amount).slice(1, -1));
    // The server's response is there too, and nothing of it became markup.
    await expect(raw.getByLabel('Received', { exact: true }).count()).resolves.toBeGreaterThan(0);
    await expect(raw.locator('img').count()).resolves.toBe(0);
    await expect(page.evaluate('typeof window.pwned')).resolves.toBe('undefined');
  });
});
