// Takes the screenshots of docs/studio.md: `mcpflow dev` on the studio's browser-test fixture
// server (and on the nightly-build example for tasks), driven in Debian's chromium through
// playwright-core, each main view in light and dark, saved as PNG under docs/images/studio/.
//   npm run build && node scripts/studio-screenshots.mjs
// MCPFLOW_CHROMIUM=<path> names another chromium (default /usr/bin/chromium).
import { spawn } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs', 'images', 'studio');
const mcpflow = join(root, 'packages', 'transformer', 'bin', 'mcpflow.js');
const fixture = join(root, 'tests', 'studio', 'browser', 'studio-fixture-server.js');
const nightly = join(root, 'examples', 'dist', 'nightly-build', 'server.js');

/** `mcpflow dev --command <server>`: resolves with its page's address once it prints it. */
function startDev(serverArgs) {
  const command = [process.execPath, ...serverArgs].map((part) => JSON.stringify(part)).join(' ');
  const child = spawn(process.execPath, [mcpflow, 'dev', '--command', command], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /^mcpflow studio: (http:\/\/\S+)\r?\n/m.exec(seen);
      if (match) resolve({ url: match[1], stop: () => child.kill() });
    });
    child.once('exit', (code) => reject(new Error(`mcpflow dev exited (${code}) before printing its address:\n${seen}`)));
  });
}

async function save(locator, name) {
  const path = join(out, `${name}.png`);
  await locator.screenshot({ path, animations: 'disabled' });
  const kB = Math.round(statSync(path).size / 1024);
  console.log(`${path} ${kB} kB`);
  if (kB >= 200) throw new Error(`${name}.png is ${kB} kB: keep each screenshot under 200 kB (a smaller view or viewport)`);
}

/** What `save` takes: the page from the top of `from` to the bottom of `to`, as wide as `from`. */
function clipped(page, from, to) {
  return {
    screenshot: async (options) => {
      const top = await from.boundingBox();
      const bottom = await to.boundingBox();
      const scrolled = await page.evaluate(() => globalThis.scrollY);
      const clip = { x: top.x, y: top.y + scrolled, width: top.width, height: bottom.y + bottom.height + 16 - top.y };
      return page.screenshot({ ...options, clip, fullPage: true });
    },
  };
}

async function choose(page, workflow) {
  await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: workflow, exact: true }).click();
  await page
    .getByRole('figure', { name: `Graph of ${workflow}` })
    .locator('g.node[data-step]')
    .first()
    .waitFor();
}

/** The fixture's views: a workflow and its graph, a run waiting on a question, a finished run with its timeline. */
async function runViews(browser, url, scheme, width) {
  const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
  const suffix = width === 1280 ? scheme : `${scheme}-${width}`;
  await page.goto(url);
  await choose(page, 'deploy_service');
  await save(page.locator('body'), `workflow-${suffix}`);
  const form = page.getByRole('form', { name: 'Arguments of deploy_service' });
  await form.getByRole('textbox', { name: 'service', exact: true }).fill('api');
  await form.getByRole('button', { name: 'Run', exact: true }).click();
  const run = page.getByRole('region', { name: 'Run of deploy_service' }).first();
  const question = run.getByRole('form', { name: 'How many replicas of api?' });
  // The node's attribute, as the live-graph test reads it (an SVG group's visibility is not dependable).
  await page.locator('g.node[data-step="scale"][data-status="waiting"]').waitFor({ state: 'attached' });
  await question.waitFor();
  // The graph waiting on the question and the run that asks it (the Inspector and the runs panel below are left out).
  await save(clipped(page, page.locator(width === 1280 ? 'main' : 'body'), run), `running-${suffix}`);
  await question.getByRole('textbox', { name: 'Replicas', exact: true }).fill('3');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  await run.getByRole('table', { name: 'Timeline' }).waitFor();
  await page.getByRole('button', { name: 'build: completed', exact: true }).click();
  // The finished run: the graph with a step's input and output, then the run and its timeline.
  await save(page.locator('#workflow'), `finished-graph-${suffix}`);
  // The run from its heading to the end of its timeline (its conversation below is left out).
  await save(clipped(page, run, run.getByRole('table', { name: 'Timeline' })), `finished-run-${suffix}`);
  await page.close();
}

/** The tasks view: a nightly_build task run to its end and one cancelled. */
async function tasksView(browser, url, scheme) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
  await page.goto(url);
  await choose(page, 'nightly_build');
  const form = page.getByRole('form', { name: 'Arguments of nightly_build' });
  await form.getByRole('textbox', { name: 'branch', exact: true }).fill('release');
  await form.getByRole('button', { name: 'Run as task', exact: true }).click();
  const question = page.getByRole('form', { name: 'Publish release to which channel?' });
  await question.getByRole('combobox', { name: 'channel' }).selectOption('beta');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  await page.getByRole('region', { name: 'Run of nightly_build' }).getByRole('table', { name: 'Timeline' }).waitFor();
  await page
    .getByRole('table', { name: 'Tasks' })
    .getByRole('cell', { name: /^completed/ })
    .first()
    .waitFor();
  await save(page.locator('#tasks'), `tasks-${scheme}`);
  await page.close();
}

mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.MCPFLOW_CHROMIUM ?? '/usr/bin/chromium' });
const studios = [];
try {
  const fixtureStudio = await startDev([fixture, '--sdk', '2']);
  studios.push(fixtureStudio);
  const nightlyStudio = await startDev([nightly]);
  studios.push(nightlyStudio);
  for (const scheme of ['light', 'dark']) {
    await runViews(browser, fixtureStudio.url, scheme, 1280);
    await tasksView(browser, nightlyStudio.url, scheme);
  }
  await runViews(browser, fixtureStudio.url, 'light', 800);
} finally {
  await browser.close();
  for (const studio of studios) studio.stop();
}
