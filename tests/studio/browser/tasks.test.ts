// Tasks from the studio page (SDK 2.x serves MCP tasks): nightly_build started with Run as task asks
// its question in the page and completes; listed with its status, Cancel cancels it — over stdio
// and over HTTP.
import type { Browser } from 'playwright-core';
import { exampleServer, launchChromium, startStudioOn, type Studio } from './studio-session';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(['stdio', 'http'] as const)('tasks in the studio page, nightly-build over %s', (transport) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudioOn(transport, exampleServer('nightly-build'), []);
  });
  afterAll(async () => {
    await studio?.close();
  });

  it("answers a task's question (input_required) in the page, and the task completes", async () => {
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'nightly_build', exact: true }).click();
      const form = page.getByRole('form', { name: 'Arguments of nightly_build' });
      await form.getByRole('textbox', { name: 'branch', exact: true }).fill('release');
      await form.getByRole('button', { name: 'Run as task', exact: true }).click();
      const run = page.getByRole('region', { name: 'Run of nightly_build' });
      const question = run.getByRole('form', { name: 'Publish release to which channel?' });
      await question.getByRole('combobox', { name: 'channel' }).selectOption('beta');
      await question.getByRole('button', { name: 'Answer' }).click();
      await run.getByRole('table', { name: 'Timeline' }).waitFor();
      await expect(run.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('completed');
      await expect(run.getByRole('list', { name: 'Conversation' }).textContent()).resolves.toContain(
        'published release-nightly.tgz to beta',
      );
      await page
        .getByRole('table', { name: 'Tasks' })
        .getByRole('row')
        .filter({ hasText: 'nightly_build' })
        .getByRole('cell', { name: /^completed/ })
        .waitFor();
    } finally {
      await page.close();
    }
  });

  it('marks the task\'s step in the graph: the one it waits at (data-status="waiting"), then none running or waiting once it completed', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'nightly_build', exact: true }).click();
      const graph = page.getByRole('figure', { name: 'Graph of nightly_build' }).locator('svg');
      await graph.waitFor();
      const form = page.getByRole('form', { name: 'Arguments of nightly_build' });
      await form.getByRole('textbox', { name: 'branch', exact: true }).fill('release');
      await form.getByRole('button', { name: 'Run as task', exact: true }).click();
      const run = page.getByRole('region', { name: 'Run of nightly_build' });
      const question = run.getByRole('form', { name: 'Publish release to which channel?' });
      await question.waitFor();
      const running = graph.locator('g.node[data-status="running"], g.node[data-status="waiting"]');
      await graph.locator('g.node[data-status="waiting"]').filter({ hasText: 'published' }).waitFor();
      await expect(running.allTextContents()).resolves.toEqual(['published']);
      await question.getByRole('combobox', { name: 'channel' }).selectOption('stable');
      await question.getByRole('button', { name: 'Answer' }).click();
      await run.getByLabel('Status', { exact: true }).filter({ hasText: 'completed' }).waitFor();
      await expect(running.count()).resolves.toBe(0);
    } finally {
      await page.close();
    }
  });

  it('lists a task started with Run as task and cancels it with Cancel', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'nightly_build', exact: true }).click();
      const form = page.getByRole('form', { name: 'Arguments of nightly_build' });
      // nightly_build is a tool only: no Run (prompt) button.
      await expect(form.getByRole('button', { name: 'Run', exact: true }).count()).resolves.toBe(0);
      await form.getByRole('textbox', { name: 'branch', exact: true }).fill('main');
      await form.getByRole('button', { name: 'Run as task', exact: true }).click();

      const tasks = page.getByRole('table', { name: 'Tasks' });
      const task = tasks.getByRole('row').filter({ hasText: 'nightly_build' });
      await task.getByRole('button', { name: /^Cancel/ }).click();
      await task.getByRole('cell', { name: /^cancelled/ }).waitFor();
      await expect(task.getByRole('button', { name: /^Cancel/ }).count()).resolves.toBe(0);
      // The run shows the end of the task too.
      const run = page.getByRole('region', { name: 'Run of nightly_build' });
      await run.getByLabel('Status', { exact: true }).filter({ hasText: 'cancelled' }).waitFor();
    } finally {
      await page.close();
    }
  });
});
