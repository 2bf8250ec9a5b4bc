// The studio page against a hostile server (../hostile-server.js, a real MCP server process over
// stdio; issue 40 §7): 5,000,000 claimed iterations, a 1 MB unbroken string as text and as a step
// name, 1,000 progress notifications of 2 kB, `%%{init}%%` and an `<img>` of another origin in the
// graph, a bidi override in a step name, an argument named `__proto__`. The page stays as wide as
// the window, shows at most 200 iteration rows and 500 progress lines, fetches nothing elsewhere,
// shows the bidi control as a visible marker and keeps the `__proto__` argument; the studio keeps
// at most `--history-runs` runs, each well under the megabytes the server sent (4 MB a run).
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, startStudioOn, type Studio } from './studio-session';

const WIDTH = 1280;
const KEPT_RUNS = 3;
let browser: Browser;
let studio: Studio;
let page: Page;
const elsewhere: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  studio = await startStudioOn('stdio', join(__dirname, '..', 'hostile-server.js'), [], ['--history-runs', String(KEPT_RUNS)]);
  page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
  page.on('request', (request) => {
    if (!request.url().startsWith(`${studio.origin}/`)) elsewhere.push(request.url());
  });
  await page.goto(studio.url);
});
afterAll(async () => {
  await page?.close();
  await studio?.close();
  await browser?.close();
});

async function runFlood(): Promise<ReturnType<Page['getByRole']>> {
  await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'flood', exact: true }).click();
  await page.getByRole('form', { name: 'Arguments of flood' }).getByRole('button', { name: 'Run as tool', exact: true }).click();
  const run = page.getByRole('region', { name: 'Run of flood' }).first();
  await run.getByRole('table', { name: 'Timeline' }).waitFor();
  return run;
}

it('shows a flooding run bounded: the window width, 200 iteration rows, 500 progress lines, a visible bidi marker', async () => {
  const run = await runFlood();
  await expect(run.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('completed');
  const width = await page.evaluate('document.documentElement.scrollWidth');
  expect(width).toBeLessThanOrEqual(WIDTH);
  // The step row, 200 iteration rows, the other two steps, and the header row.
  await expect(run.getByRole('table', { name: 'Timeline' }).getByRole('row').count()).resolves.toBe(1 + 1 + 200 + 2);
  await expect(run.getByRole('table', { name: 'Timeline' }).textContent()).resolves.toContain('4,999,800 more iterations not shown');
  await expect(run.getByRole('table', { name: 'Timeline' }).textContent()).resolves.toContain('safe⟦U+202E⟧gnp.exe');
  const conversation = (await run.getByRole('list', { name: 'Conversation' }).textContent()) ?? '';
  expect(conversation.length).toBeLessThan(300_000);
  expect(conversation).toContain('more characters not kept by the studio');
  const progress = run.getByRole('list', { name: 'Progress' }).getByRole('listitem');
  await expect(progress.count()).resolves.toBe(501);
  await expect(progress.last().textContent()).resolves.toContain('more progress not kept by the studio');
  // The graph's `%%{init}%%` did not restyle it, its `<img>` fetched nothing.
  expect(elsewhere).toEqual([]);
});

it('keeps an argument named __proto__', async () => {
  await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'proto', exact: true }).click();
  const form = page.getByRole('form', { name: 'Arguments of proto' });
  await form.getByRole('textbox', { name: '__proto__', exact: true }).fill('kept');
  await form.getByRole('button', { name: 'Run', exact: true }).click();
  await page.getByRole('region', { name: 'Run of proto' }).getByRole('table', { name: 'Timeline' }).waitFor();
  await expect(
    page.getByRole('table', { name: 'Runs' }).getByRole('row').filter({ hasText: 'proto' }).first().textContent(),
  ).resolves.toContain('{"__proto__":"kept"}');
});

it(`keeps at most ${KEPT_RUNS} runs, each far smaller than what the server sent`, async () => {
  for (let index = 0; index < KEPT_RUNS; index += 1) await runFlood();
  const response = await page.request.get(`${studio.origin}/api/runs`, { headers: { 'x-mcpflow-token': studio.token } });
  const { runs, kept } = (await response.json()) as { runs: { workflow: string }[]; kept: { runs: number; bytes: number } };
  expect(runs).toHaveLength(KEPT_RUNS);
  expect(kept.runs).toBe(KEPT_RUNS);
  // Each flood run sent over 4 MB (two 1 MB strings, 1,000 × 2 kB of progress): the studio keeps under 2 MiB of each.
  expect(kept.bytes).toBeLessThan(KEPT_RUNS * 2 * 1024 * 1024);
  await page.reload();
  // The runs panel fills in once the reloaded page has read the runs: wait for its last row, then count.
  const rows = page.getByRole('table', { name: 'Runs' }).getByRole('row');
  await rows.nth(KEPT_RUNS).waitFor();
  await expect(rows.count()).resolves.toBe(KEPT_RUNS + 1);
  expect(elsewhere).toEqual([]);
});
