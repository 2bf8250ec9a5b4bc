// The connection panel in Chromium (issue 40 §6): the server's stderr collapsed until asked for; a
// stdio server that crashes shows how its process ended; a server behind --url that restarts
// slowly (longer than the ten seconds the studio used to try for) is waited for, and Reconnect
// connects to it as soon as it is back.
import type { Browser, Page } from 'playwright-core';
import { serverPids } from '../server-pids';
import { fixtureServer, launchChromium, nodeCommand, startDev, startHttpServer } from './studio-session';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Longer than the studio's old give-up time (20 tries 0.5 s apart): the server comes back after it. */
const SLOW_RESTART_MS = 12_000;

async function connectionState(page: Page, origin: string, token: string): Promise<string> {
  const response = await page.request.get(`${origin}/api/server`, { headers: { 'x-mcpflow-token': token } });
  return ((await response.json()) as { connection: { state: string } }).connection.state;
}

it("keeps a failed server's stderr collapsed until it is opened", async () => {
  const failing = `${JSON.stringify(process.execPath)} -e ${JSON.stringify("console.error('cannot open the database'); process.exit(3)")}`;
  const studio = await startDev({ command: failing });
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const connection = page.getByRole('status', { name: 'Connection' });
    await connection.getByText(/^Server failed/).waitFor();
    const stderr = connection.getByLabel('Server stderr');
    await expect(stderr.isVisible()).resolves.toBe(false);
    await connection.getByText('Server stderr', { exact: true }).click();
    await stderr.waitFor();
    await expect(stderr.textContent()).resolves.toContain('cannot open the database');
    // Still open after the next poll redrew the panel.
    await page.waitForResponse((response) => response.url().endsWith('/api/server'));
    await expect(stderr.isVisible()).resolves.toBe(true);
    await expect(connection.getByRole('button', { name: 'Reconnect' }).count()).resolves.toBe(1);
  } finally {
    await page.close();
    await studio.close();
  }
});

it('shows how a crashed stdio server ended', async () => {
  const pids = serverPids();
  const studio = await startDev({ command: nodeCommand(fixtureServer, ['--sdk', '2']) }, { MCPFLOW_STUDIO_FIXTURE_PIDS: pids.file });
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const connection = page.getByRole('status', { name: 'Connection' });
    await connection.getByText(/^Connected to studio-fixture/).waitFor();
    const [pid] = pids.alive();
    process.kill(pid!, 'SIGKILL');
    await expect(connection.getByLabel('Server exit').textContent()).resolves.toBe("The server's process ended with signal SIGKILL.");
  } finally {
    await page.close();
    await studio.close();
  }
});

it('waits for a --url server that restarts slowly, and Reconnect connects at once when it is back', async () => {
  let server = await startHttpServer(fixtureServer, ['--sdk', '2']);
  const port = Number(new URL(server.url).port);
  const studio = await startDev({ url: server.url });
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const connection = page.getByRole('status', { name: 'Connection' });
    await connection.getByText(/^Connected to studio-fixture/).waitFor();
    await server.close();
    // The page's next listing finds the server gone.
    await page.reload();
    await connection.getByText(/^Reconnecting to/).waitFor();
    await new Promise((resolve) => setTimeout(resolve, SLOW_RESTART_MS));
    await expect(connectionState(page, studio.origin, studio.token)).resolves.toBe('reconnecting');
    server = await startHttpServer(fixtureServer, ['--sdk', '2'], port);
    await connection.getByRole('button', { name: 'Reconnect' }).click();
    await connection.getByText(/^Connected to studio-fixture/).waitFor();
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'charge_card', exact: true }).waitFor();
  } finally {
    await page.close();
    await studio.close();
    await server.close();
  }
});
