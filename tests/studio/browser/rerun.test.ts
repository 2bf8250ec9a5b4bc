// Rerun in the page (DESIGN §2.15, issue 40.4), in a real browser against `mcpflow dev --command`
// — which starts its server with MCPFLOW_DEV=1 — on both SDK lines: Rerun fills a form with the
// run's arguments (edited here), Rerun from here on a step's timeline row reruns that step and the
// later ones only, and each rerun names the run it reruns. The server counts its tool calls in a
// file: they prove which steps ran.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, startDev, type Studio } from './studio-session';

const rerunServer = join(__dirname, '..', 'rerun-server.js');
const dir = mkdtempSync(join(tmpdir(), 'studio-rerun-page-'));

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each([1, 2])('Rerun in the page, stdio server on SDK %i', (sdk) => {
  const calls = join(dir, `calls-${sdk}.txt`);
  const counted = () => {
    const lines = readFileSync(calls, 'utf8').split('\n').filter(Boolean);
    return Object.fromEntries(['fetch', 'build', 'publish'].map((tool) => [tool, lines.filter((line) => line === tool).length]));
  };
  let studio: Studio;
  let page: Page;
  beforeAll(async () => {
    writeFileSync(calls, '');
    const command = [process.execPath, rerunServer, '--sdk', String(sdk)].map((part) => JSON.stringify(part)).join(' ');
    studio = await startDev({ command }, { MCPFLOW_RERUN_CALLS: calls });
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(studio.url);
  });
  afterAll(async () => {
    await page?.close();
    await studio?.close();
  });

  /** The run `section` shows, once its result is shown: its id, and a locator that stays on it as newer runs are added above. */
  async function finished(section: Locator): Promise<{ section: Locator; runId: string }> {
    await section.getByRole('table', { name: 'Timeline' }).waitFor();
    const heading = (await section.getByRole('heading', { level: 3 }).textContent())!;
    const runId = /run (\S+)$/.exec(heading)![1];
    return { section: page.locator(`[id="run-${runId}"]`), runId };
  }

  const newest = () => page.getByRole('region', { name: 'Run of release' }).first();

  it('Run, then Rerun with an edited argument, then Rerun from here on a step: tool calls show which steps ran', async () => {
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'release', exact: true }).click();
    const form = page.getByRole('form', { name: 'Arguments of release' });
    await form.getByRole('textbox', { name: 'repo', exact: true }).fill('app');
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    const first = await finished(newest());
    await expect(first.section.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('completed');
    expect(counted()).toEqual({ fetch: 1, build: 1, publish: 1 });

    // Rerun: a form filled with the run's arguments; edited, it reruns with the new ones.
    await first.section.getByRole('button', { name: 'Rerun', exact: true }).click();
    const again = first.section.getByRole('form', { name: 'Rerun arguments of release' });
    const repo = again.getByRole('textbox', { name: 'repo', exact: true });
    await expect(repo.inputValue()).resolves.toBe('app');
    await repo.fill('lib');
    await again.getByRole('button', { name: 'Start rerun' }).click();
    await page.locator('.run').nth(1).waitFor();
    const edited = await finished(newest());
    expect(edited.runId).not.toBe(first.runId);
    await expect(edited.section.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('completed');
    await expect(edited.section.getByText(`Rerun of run ${first.runId} (every step)`).count()).resolves.toBe(1);
    await expect(edited.section.getByText(/lib@2\.tgz/).count()).resolves.toBeGreaterThan(0);
    expect(counted()).toEqual({ fetch: 2, build: 2, publish: 2 });

    // Rerun from here on the publish row of the first run: only publish runs again.
    await first.section.getByRole('button', { name: 'Rerun from publish' }).click();
    await page.locator('.run').nth(2).waitFor();
    const fromPublish = await finished(newest());
    await expect(fromPublish.section.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('completed');
    await expect(fromPublish.section.getByText(`Rerun of run ${first.runId} from step publish`).count()).resolves.toBe(1);
    expect(counted()).toEqual({ fetch: 2, build: 2, publish: 3 });
    // The link goes to the run it reruns.
    await expect(fromPublish.section.getByRole('link', { name: `run ${first.runId}` }).getAttribute('href')).resolves.toBe(
      `#run-${first.runId}`,
    );
    // It reused the first run's artifact (app@1.tgz), not the edited rerun's.
    await expect(fromPublish.section.getByText(/app@1\.tgz/).count()).resolves.toBeGreaterThan(0);
  });
});
