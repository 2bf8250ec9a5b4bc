// The studio at 800 px (issue 40.8, DESIGN §2.15: readable at 1280 px and 800 px), in a real browser
// at 800×900 against `mcpflow dev` and the fixture server over stdio: each main view — a workflow
// and its graph, a run waiting on a question, a finished run with its timeline, a step's input and
// output and its raw messages, the runs panel, the Inspector — fits the width (no horizontal page
// overflow), and the graph and the runs panel are on screen within it.
import type { Browser, Locator, Page } from 'playwright-core';
import { fixtureServer, launchChromium, startStudioOn, type Studio } from './studio-session';

const WIDTH = 800;
let browser: Browser;
let studio: Studio;
let page: Page;
beforeAll(async () => {
  browser = await launchChromium();
  studio = await startStudioOn('stdio', fixtureServer, ['--sdk', '2']);
  page = await browser.newPage({ viewport: { width: WIDTH, height: 900 } });
  await page.goto(studio.url);
});
afterAll(async () => {
  await page?.close();
  await browser?.close();
  await studio?.close();
});

/** The page's width as laid out, and the widest element that sticks out past the viewport (for the failure's message). */
async function overflow(): Promise<{ scrollWidth: number; clientWidth: number; widest?: string }> {
  // A string: the test's own TypeScript has no DOM types; this runs in the page.
  return page.evaluate(`(() => {
    const root = document.documentElement;
    let widest;
    let right = root.clientWidth;
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 0.5) {
        right = box.right;
        widest = element.tagName.toLowerCase() + (element.id ? '#' + element.id : '') + '.' + [...element.classList].join('.') + ' to ' + Math.round(box.right) + ' px';
      }
    }
    return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, ...(widest ? { widest } : {}) };
  })()`);
}

/** No horizontal page overflow: nothing is wider than the 800 px window. */
async function fits(view: string): Promise<void> {
  const seen = await overflow();
  expect({ view, ...seen }).toEqual({ view, scrollWidth: seen.clientWidth, clientWidth: seen.clientWidth });
}

/** On screen within the width: shown, not zero-sized, its right edge inside the window. */
async function withinWidth(locator: Locator): Promise<void> {
  // The runs panel draws itself anew on each event, so an element found may be replaced before it is measured.
  let box = null;
  while (box === null) {
    await locator.waitFor();
    box = await locator.boundingBox();
  }
  expect(box.width).toBeGreaterThan(100);
  expect(box.height).toBeGreaterThan(50);
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(WIDTH);
}

test('a workflow, a run waiting and finished, a step’s I/O, raw messages, the runs panel and the Inspector fit 800 px', async () => {
  await fits('the empty page');
  await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'deploy_service', exact: true }).click();
  const graph = page.getByRole('figure', { name: 'Graph of deploy_service' });
  await graph.locator('g.node[data-step]').first().waitFor();
  await withinWidth(graph);
  await withinWidth(graph.locator('svg'));
  await fits('a workflow and its graph');

  const form = page.getByRole('form', { name: 'Arguments of deploy_service' });
  await form.getByRole('textbox', { name: 'service', exact: true }).fill('api');
  await form.getByRole('button', { name: 'Run', exact: true }).click();
  const run = page.getByRole('region', { name: 'Run of deploy_service' }).first();
  const question = run.getByRole('form', { name: 'How many replicas of api?' });
  await question.waitFor();
  await fits('a run waiting on a question');

  await question.getByRole('textbox', { name: 'Replicas', exact: true }).fill('3');
  await question.getByRole('button', { name: 'Answer', exact: true }).click();
  await withinWidth(run.getByRole('table', { name: 'Timeline' }));
  await graph.getByRole('button', { name: 'build: completed', exact: true }).click();
  await run.locator('details.raw-messages').getByText('Raw messages', { exact: true }).click();
  await run.locator('details.raw-messages').getByLabel('Received', { exact: true }).first().waitFor();
  await fits('a finished run: its timeline, a step’s input and output, its raw messages');

  const runsPanel = page.getByRole('region', { name: 'Runs kept' });
  await withinWidth(runsPanel.getByRole('table', { name: 'Runs' }));
  await withinWidth(graph);
  await fits('the runs panel');

  const inspector = page.getByRole('region', { name: 'Inspector' });
  const call = inspector.getByRole('form', { name: 'Call resize' });
  await call.getByRole('spinbutton', { name: 'width (required)' }).fill('640');
  await call.getByRole('combobox', { name: 'format (required)' }).selectOption({ label: 'png' });
  await call.getByRole('button', { name: 'Call' }).click();
  await inspector.getByLabel('Result of resize').filter({ hasText: 'resized' }).waitFor();
  const prompt = inspector.getByRole('form', { name: 'Get review_code' });
  await prompt.getByRole('textbox', { name: 'file (required)' }).fill('src/main.ts');
  await prompt.getByRole('button', { name: 'Get' }).click();
  await inspector.getByRole('list', { name: 'Messages of review_code' }).waitFor();
  await withinWidth(inspector);
  await fits('the Inspector');
});
