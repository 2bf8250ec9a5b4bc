// The connection in the studio page: a server command that exits at once is shown as failed, with
// its stderr, so the user sees why without reading the terminal.
import type { Browser } from 'playwright-core';
import { launchChromium, startDev, type Studio } from './studio-session';

let browser: Browser;
let studio: Studio;

beforeAll(async () => {
  browser = await launchChromium();
  const failing = `${JSON.stringify(process.execPath)} -e ${JSON.stringify("console.error('cannot open the database'); process.exit(3)")}`;
  studio = await startDev({ command: failing });
});
afterAll(async () => {
  await studio?.close();
  await browser?.close();
});

it('shows a server that failed to start, with its stderr', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const connection = page.getByRole('status', { name: 'Connection' });
    await connection.getByText(/^Server failed/).waitFor();
    await expect(connection.getByLabel('Server stderr').textContent()).resolves.toContain('cannot open the database');
    await expect(page.getByRole('navigation', { name: 'Workflows' }).getByRole('button').count()).resolves.toBe(0);
  } finally {
    await page.close();
  }
});
