// A run's raw JSON-RPC messages in the page (issue 40.5, DESIGN §2.15), in a real browser against
// `mcpflow dev` and the fixture server over stdio on both SDK lines and over HTTP (`--url`): the run
// view's collapsible "Raw messages" section shows the run's prompts/get request as the client sent
// it, as text, and, while open, follows the run as it goes (told by the page's one event stream).
import type { Browser, Page } from 'playwright-core';
import { fixtureServer, launchChromium, startStudioOn, type Studio } from './studio-session';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each([
  ['stdio', 1],
  ['stdio', 2],
  ['http', 2],
] as const)('raw messages in the page, %s server on SDK %i', (transport, sdk) => {
  let studio: Studio;
  let page: Page;
  beforeAll(async () => {
    studio = await startStudioOn(transport, fixtureServer, ['--sdk', String(sdk)]);
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

  it('follows a run while it goes on: opened at its first question, it shows the second before the run ends', async () => {
    const streams: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.endsWith('/events')) streams.push(path);
    });
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'plan_trip', exact: true }).click();
    await page.getByRole('form', { name: 'Arguments of plan_trip' }).getByRole('button', { name: 'Run', exact: true }).click();
    const run = page.getByRole('region', { name: 'Run of plan_trip' }).first();
    await run.getByRole('form', { name: 'Where to?' }).waitFor();
    const raw = run.locator('details.raw-messages');
    await raw.getByText('Raw messages', { exact: true }).click();
    await raw.getByLabel('Received', { exact: true }).filter({ hasText: 'Where to?' }).first().waitFor();
    await run.getByRole('textbox', { name: 'Destination', exact: true }).fill('Lisbon');
    await run.getByRole('button', { name: 'Answer', exact: true }).click();
    // The answer and the second question reach the open section while the run still waits: an
    // elicitation/create request (2025) or an input_required result (2026-07-28).
    await run.getByRole('form', { name: 'For how many nights?' }).waitFor();
    await raw.getByLabel('Sent', { exact: true }).filter({ hasText: '"Lisbon"' }).first().waitFor();
    await raw.getByLabel('Received', { exact: true }).filter({ hasText: 'For how many nights?' }).first().waitFor();
    await expect(run.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('running');
    await run.getByRole('textbox', { name: 'Nights', exact: true }).fill('3');
    await run.getByRole('button', { name: 'Answer', exact: true }).click();
    await run.getByLabel('Status', { exact: true }).filter({ hasText: 'completed' }).waitFor();
    // One event stream for it all: the page opened no stream of its own for the run's messages.
    expect(streams.every((path) => path === '/api/events')).toBe(true);
  });
});
