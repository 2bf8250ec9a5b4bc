// The version a run started or resumed on, in the studio page (DESIGN §2.16 "Seen", issue 41): a
// prompt run of a workflow that declares version 2 shows it in its header and in the Runs panel
// (from its result's `_meta["mcpflow/run"].version`), a task run shows it while it waits on its
// question (from tasks/get's `_meta["mcpflow/task"].version`), and a workflow that declares no
// version shows none.
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, nodeCommand, startDev, type Studio } from './studio-session';

const server = nodeCommand(join(__dirname, 'versioned-server.js'), []);

let browser: Browser;
let studio: Studio;
beforeAll(async () => {
  browser = await launchChromium();
  studio = await startDev({ command: server });
});
afterAll(async () => {
  await studio?.close();
  await browser?.close();
});

/** Chooses `workflow`, fills its branch and starts it with the button `face`; the run's region. */
async function start(page: Page, workflow: string, face: 'Run' | 'Run as task'): Promise<Locator> {
  await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: workflow, exact: true }).click();
  const form = page.getByRole('form', { name: `Arguments of ${workflow}` });
  await form.getByRole('textbox', { name: 'branch', exact: true }).fill('main');
  await form.getByRole('button', { name: face, exact: true }).click();
  return page.getByRole('region', { name: `Run of ${workflow}` });
}

/** Answers the run's channel question with beta, and waits for it to complete. */
async function answerAndFinish(run: Locator): Promise<void> {
  const question = run.getByRole('form', { name: 'Publish main to which channel?' });
  await question.getByRole('combobox', { name: 'channel' }).selectOption('beta');
  await question.getByRole('button', { name: 'Answer' }).click();
  await run.getByRole('table', { name: 'Timeline' }).waitFor();
  await expect(run.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('completed');
}

/** The Version cell of the Runs panel's row of `workflow` started as `face`. */
function versionCell(page: Page, workflow: string, face: string): Locator {
  return page
    .getByRole('table', { name: 'Runs' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: workflow, exact: true }) })
    .filter({ has: page.getByRole('cell', { name: face, exact: true }) })
    .locator('td.version');
}

it("shows a prompt run's version in its header and in the Runs panel", async () => {
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const run = await start(page, 'release', 'Run');
    await answerAndFinish(run);
    await expect(run.getByRole('heading', { level: 3 }).getByLabel('Version').textContent()).resolves.toBe('version 2');
    await versionCell(page, 'release', 'prompt').filter({ hasText: '2' }).waitFor();
    await expect(versionCell(page, 'release', 'prompt').textContent()).resolves.toBe('2');
  } finally {
    await page.close();
  }
});

it("shows a task run's version while the task waits on its question (tasks/get), and once it completed", async () => {
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const run = await start(page, 'release', 'Run as task');
    await run.getByRole('form', { name: 'Publish main to which channel?' }).waitFor();
    const version = run.getByRole('heading', { level: 3 }).getByLabel('Version');
    await version.filter({ hasText: 'version 2' }).waitFor();
    await versionCell(page, 'release', 'task').filter({ hasText: '2' }).waitFor();
    await answerAndFinish(run);
    await expect(version.textContent()).resolves.toBe('version 2');
    await expect(versionCell(page, 'release', 'task').textContent()).resolves.toBe('2');
  } finally {
    await page.close();
  }
});

it('shows no version for a workflow that declares none', async () => {
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    const prompt = await start(page, 'release_unversioned', 'Run');
    await answerAndFinish(prompt);
    await expect(prompt.getByRole('heading', { level: 3 }).getByLabel('Version').textContent()).resolves.toBe('');
    const task = await start(page, 'release_unversioned', 'Run as task');
    await answerAndFinish(task.first());
    await expect(task.first().getByRole('heading', { level: 3 }).getByLabel('Version').textContent()).resolves.toBe('');
    await versionCell(page, 'release_unversioned', 'task').waitFor();
    await expect(versionCell(page, 'release_unversioned', 'prompt').textContent()).resolves.toBe('');
    await expect(versionCell(page, 'release_unversioned', 'task').textContent()).resolves.toBe('');
  } finally {
    await page.close();
  }
});
