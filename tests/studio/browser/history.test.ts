// The studio's run history in Chromium (issue 40 §1): the runs a studio started are listed in the
// runs panel after a reload, filtered by workflow, and shown again with Open; a prompt run waiting
// on a question is cancelled with Cancel; seven unfinished runs share the page's one event stream
// (Chromium opens at most six connections to the studio); `--history <file>` keeps the runs across
// a studio restart, and a file that is not a history is reported and ignored.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { exampleServer, fixtureServer, launchChromium, nodeCommand, startDev } from './studio-session';

let browser: Browser;
let dir: string;
beforeAll(async () => {
  browser = await launchChromium();
  dir = mkdtempSync(join(tmpdir(), 'mcpflow-studio-history-'));
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

const fixture = nodeCommand(fixtureServer, ['--sdk', '2']);
/** A wait that fails a test rather than hang it: what a stalled page would never show. */
const SHOWN_MS = 30_000;

/** Chooses `workflow` and starts it with `args` through the button `face`. */
async function start(page: Page, workflow: string, args: Record<string, string>, face = 'Run'): Promise<void> {
  await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: workflow, exact: true }).click();
  const form = page.getByRole('form', { name: `Arguments of ${workflow}` });
  for (const [name, value] of Object.entries(args)) await form.getByRole('textbox', { name, exact: true }).fill(value);
  await form.getByRole('button', { name: face, exact: true }).click();
}

/** The status a run's region shows once it ended. */
async function endedStatus(page: Page, workflow: string): Promise<string | null> {
  const run = page.getByRole('region', { name: `Run of ${workflow}` }).first();
  await run.getByRole('table', { name: 'Timeline' }).waitFor({ timeout: SHOWN_MS });
  return run.getByLabel('Status', { exact: true }).textContent();
}

describe('a studio with --history', () => {
  const file = (): string => join(dir, 'runs.json');

  it('lists its runs after a reload, filters them by workflow, and opens one', async () => {
    const studio = await startDev({ command: fixture }, {}, ['--history', file()]);
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      await start(page, 'charge_card', { amount: '3' });
      await expect(endedStatus(page, 'charge_card')).resolves.toBe('failed');
      await start(page, 'summarize_notes', { notes: 'standup' });
      await expect(endedStatus(page, 'summarize_notes')).resolves.toBe('handoff');

      await page.reload();
      const runs = page.getByRole('table', { name: 'Runs' });
      await runs.getByRole('row').filter({ hasText: 'summarize_notes' }).waitFor();
      await expect(runs.getByRole('row').filter({ hasText: 'charge_card' }).textContent()).resolves.toContain('{"amount":"3"}');
      await expect(page.getByRole('region', { name: /^Run of/ }).count()).resolves.toBe(0);

      await page.getByRole('combobox', { name: 'Workflow' }).selectOption('charge_card');
      await expect(runs.getByRole('row').filter({ hasText: 'summarize_notes' }).count()).resolves.toBe(0);
      await runs.getByRole('button', { name: /^Open run .* of charge_card$/ }).click();
      const shown = page.getByRole('region', { name: 'Run of charge_card' });
      await expect(endedStatus(page, 'charge_card')).resolves.toBe('failed');
      await expect(shown.getByLabel('Reason').textContent()).resolves.toContain('card declined by the bank');
    } finally {
      await page.close();
      await studio.close();
    }
  });

  it('shows the runs of the studio before it after a restart', async () => {
    const studio = await startDev({ command: fixture }, {}, ['--history', file()]);
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      const runs = page.getByRole('table', { name: 'Runs' });
      await runs.getByRole('row').filter({ hasText: 'summarize_notes' }).waitFor();
      await runs.getByRole('button', { name: /^Open run .* of charge_card$/ }).click();
      await expect(endedStatus(page, 'charge_card')).resolves.toBe('failed');
    } finally {
      await page.close();
      await studio.close();
    }
  });

  it('reports a file that is not a history and goes on without it', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"runs": [ not json');
    const studio = await startDev({ command: fixture }, {}, ['--history', broken]);
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      const panel = page.getByRole('region', { name: 'Runs kept' });
      await expect(panel.getByRole('alert').textContent()).resolves.toMatch(/broken\.json is not a studio history \(not JSON/);
      expect(studio.stderr()).toMatch(/broken\.json is not a studio history/);
      await start(page, 'charge_card', { amount: '4' });
      await expect(endedStatus(page, 'charge_card')).resolves.toBe('failed');
    } finally {
      await page.close();
      await studio.close();
    }
  });
});

describe('runs that wait', () => {
  it('cancels a prompt run waiting on a question with Cancel', async () => {
    const studio = await startDev({ command: fixture });
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      await start(page, 'deploy_service', { service: 'api' });
      const run = page.getByRole('region', { name: 'Run of deploy_service' });
      await run.getByRole('form', { name: 'How many replicas of api?' }).waitFor();
      await run.getByRole('button', { name: 'Cancel', exact: true }).click();
      await expect(endedStatus(page, 'deploy_service')).resolves.toBe('cancelled');
      await expect(run.getByRole('form').count()).resolves.toBe(0);
      await expect(
        page
          .getByRole('table', { name: 'Runs' })
          .getByRole('row')
          .filter({ hasText: 'deploy_service' })
          .getByRole('cell', { name: 'cancelled' })
          .count(),
      ).resolves.toBe(1);
    } finally {
      await page.close();
      await studio.close();
    }
  });

  it('follows seven unfinished runs and one more on a single event stream', async () => {
    const studio = await startDev({ command: fixture });
    const page = await browser.newPage();
    const streams: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/events')) streams.push(new URL(request.url()).pathname);
    });
    try {
      await page.goto(studio.url);
      for (let index = 0; index < 7; index += 1) await start(page, 'deploy_service', { service: `svc${index}` });
      for (let index = 0; index < 7; index += 1)
        await page.getByRole('form', { name: `How many replicas of svc${index}?` }).waitFor({ timeout: SHOWN_MS });
      await start(page, 'charge_card', { amount: '5' });
      await expect(endedStatus(page, 'charge_card')).resolves.toBe('failed');
      // The seven still wait, each on its question; and one answered completes.
      const first = page.getByRole('form', { name: 'How many replicas of svc0?' });
      await first.getByRole('textbox', { name: 'Replicas' }).fill('2');
      await first.getByRole('button', { name: 'Answer' }).click();
      await page
        .getByRole('table', { name: 'Runs' })
        .getByRole('row')
        .filter({ hasText: '"svc0"' })
        .getByRole('cell', { name: 'completed' })
        .waitFor({ timeout: SHOWN_MS });
      expect(streams).toEqual(['/api/events']);
    } finally {
      await page.close();
      await studio.close();
    }
  });
});

it('answers a task that waits on a question after a reload, from the Tasks list', async () => {
  const studio = await startDev({ command: nodeCommand(exampleServer('nightly-build'), []) });
  const page = await browser.newPage();
  try {
    await page.goto(studio.url);
    await start(page, 'nightly_build', { branch: 'release' }, 'Run as task');
    await page.getByRole('form', { name: 'Publish release to which channel?' }).waitFor();
    await page.reload();
    const task = page.getByRole('table', { name: 'Tasks' }).getByRole('row').filter({ hasText: 'nightly_build' });
    await task.getByRole('cell', { name: /^input_required/ }).waitFor();
    await task.getByRole('button', { name: /^Open the run of task/ }).click();
    const question = page
      .getByRole('region', { name: 'Run of nightly_build' })
      .getByRole('form', { name: 'Publish release to which channel?' });
    await question.getByRole('combobox', { name: 'channel' }).selectOption('beta');
    await question.getByRole('button', { name: 'Answer' }).click();
    await expect(endedStatus(page, 'nightly_build')).resolves.toBe('completed');
    await task.getByRole('cell', { name: /^completed/ }).waitFor();
  } finally {
    await page.close();
    await studio.close();
  }
});
