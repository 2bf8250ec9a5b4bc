// The connection in the studio page: a server command that exits at once is shown as failed, with
// its stderr, so the user sees why without reading the terminal; a server that restarts is
// followed back to connected, and its workflows run again.
import type { Browser } from 'playwright-core';
import { serverPids } from '../server-pids';
import { fixtureServer, launchChromium, startDev, type Studio } from './studio-session';

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

describe('a stdio server that restarts', () => {
  let restarting: Studio;
  const pids = serverPids();

  beforeAll(async () => {
    restarting = await startDev(
      { command: `${JSON.stringify(process.execPath)} ${JSON.stringify(fixtureServer)} --sdk 2` },
      { MCPFLOW_STUDIO_FIXTURE_PIDS: pids.file },
    );
  });
  afterAll(async () => {
    await restarting?.close();
  });

  it('is connected again in the page, its workflows listed and runnable', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(restarting.url);
      const list = page.getByRole('navigation', { name: 'Workflows' });
      await list.getByRole('button', { name: 'charge_card', exact: true }).waitFor();
      const first = pids.alive();
      expect(first).toHaveLength(1);
      process.kill(first[0]!);
      // The studio starts the command again; the page follows it back to connected and lists the workflows again.
      while (pids.alive().filter((pid) => pid !== first[0]).length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      const state = async (): Promise<string> => {
        const response = await page.request.get(`${restarting.origin}/api/server`, { headers: { 'x-mcpflow-token': restarting.token } });
        return ((await response.json()) as { connection: { state: string } }).connection.state;
      };
      while ((await state()) !== 'connected') await new Promise((resolve) => setTimeout(resolve, 50));
      await page
        .getByRole('status', { name: 'Connection' })
        .getByText(/^Connected to studio-fixture/)
        .waitFor();
      await list.getByRole('button', { name: 'charge_card', exact: true }).click();
      const form = page.getByRole('form', { name: 'Arguments of charge_card' });
      await form.getByRole('textbox', { name: 'amount', exact: true }).fill('3');
      await form.getByRole('button', { name: 'Run', exact: true }).click();
      const run = page.getByRole('region', { name: 'Run of charge_card' });
      await run.getByRole('table', { name: 'Timeline' }).waitFor();
      await expect(run.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('failed');
    } finally {
      await page.close();
    }
  });
});
