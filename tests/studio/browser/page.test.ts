// The studio's page in a real browser (Debian's chromium), against `mcpflow dev` connected to the
// fixture server over stdio and over HTTP, on both SDK lines: the list, the SVG graph, a question
// answered in the page (a wrong type first), a failed run, a handoff, and the timeline.
import type { Browser, Page } from 'playwright-core';
import { fixtureServer, launchChromium, startStudioOn, type Studio } from './studio-session';

const targets: { transport: 'stdio' | 'http'; sdk: 1 | 2 }[] = [
  { transport: 'stdio', sdk: 1 },
  { transport: 'stdio', sdk: 2 },
  { transport: 'http', sdk: 1 },
  { transport: 'http', sdk: 2 },
];

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(targets)('the studio page, $transport server on SDK $sdk', ({ transport, sdk }) => {
  let studio: Studio;
  let page: Page;

  beforeAll(async () => {
    studio = await startStudioOn(transport, fixtureServer, ['--sdk', String(sdk)]);
  });
  afterAll(async () => {
    await studio?.close();
  });
  let elsewhere: string[];

  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    elsewhere = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(`${studio.origin}/`)) elsewhere.push(request.url());
    });
    await page.goto(studio.url);
  });
  afterEach(async () => {
    await page.close();
    // Everything the page needs is bundled and served by the studio: no CDN, no network.
    expect(elsewhere).toEqual([]);
  });

  /** Chooses `workflow` in the list and starts it with `args` through the button `face`. */
  async function run(workflow: string, args: Record<string, string>, face = 'Run') {
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: workflow, exact: true }).click();
    const form = page.getByRole('form', { name: `Arguments of ${workflow}` });
    for (const [name, value] of Object.entries(args)) await form.getByRole('textbox', { name, exact: true }).fill(value);
    await form.getByRole('button', { name: face, exact: true }).click();
    return page.getByRole('region', { name: `Run of ${workflow}` }).first();
  }

  it('lists the workflows by name and draws the chosen one as SVG, a node per step, with its description and argument form', async () => {
    const list = page.getByRole('navigation', { name: 'Workflows' });
    // waitFor: the list arrives once the studio has listed the server's workflows (exactly one button each: strict locators).
    for (const name of ['deploy_service', 'charge_card', 'summarize_notes'])
      await list.getByRole('button', { name, exact: true }).waitFor();

    await list.getByRole('button', { name: 'deploy_service', exact: true }).click();
    const graph = page.getByRole('figure', { name: 'Graph of deploy_service' }).locator('svg');
    await graph.waitFor();
    const labels = (await graph.locator('g.node, g.edgeLabel').allTextContents()).map((label) => label.trim());
    for (const step of ['build', 'unit_tests', 'lint', 'ship', 'scale']) expect(labels).toContain(step);
    // forEach on the edges into ship, its quotes as quotes (mermaid's #quot; escapes decoded).
    expect(labels.filter((label) => /^forEach\s+constant\(\["eu","us","ap"\]\)$/.test(label))).toHaveLength(2);
    await expect(page.getByText('Build a service, check it, ship it to each region and scale it').count()).resolves.toBe(1);
    const form = page.getByRole('form', { name: 'Arguments of deploy_service' });
    await expect(form.getByRole('textbox', { name: 'service', exact: true }).count()).resolves.toBe(1);
    // deploy_service is a prompt and a tool; charge_card only a prompt.
    await expect(form.getByRole('button', { name: 'Run', exact: true }).count()).resolves.toBe(1);
    await expect(form.getByRole('button', { name: 'Run as tool', exact: true }).count()).resolves.toBe(1);
    await list.getByRole('button', { name: 'charge_card', exact: true }).click();
    await page.getByRole('form', { name: 'Arguments of charge_card' }).waitFor();
    await expect(page.getByRole('button', { name: 'Run as tool', exact: true }).count()).resolves.toBe(0);
  });

  it('asks the question in the page: a wrong type names the field and keeps the form open; the answer completes the run, parallel steps side by side and each forEach iteration on the timeline', async () => {
    const runSection = await run('deploy_service', { service: 'api' });
    const question = runSection.getByRole('form', { name: 'How many replicas of api?' });
    const replicas = question.getByRole('textbox', { name: 'Replicas', exact: true });
    await replicas.fill('three');
    await question.getByRole('button', { name: 'Answer' }).click();
    const refusal = question.getByRole('alert');
    await expect(refusal.filter({ hasText: 'Replicas' }).waitFor()).resolves.toBeUndefined();
    await expect(replicas.getAttribute('aria-invalid')).resolves.toBe('true');

    await replicas.fill('3');
    await question.getByRole('button', { name: 'Answer' }).click();
    const status = runSection.getByLabel('Status', { exact: true });
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await expect(status.textContent()).resolves.toBe('completed');
    await expect(question.count()).resolves.toBe(0);

    const timeline = runSection.getByRole('table', { name: 'Timeline' });
    const row = (name: string | RegExp) => timeline.getByRole('row', { name });
    for (const step of ['build', 'unit_tests', 'lint', 'scale'])
      await expect(row(new RegExp(`^${step}\\b.*completed`)).count()).resolves.toBe(1);
    await expect(row(/^ship #\d+/).count()).resolves.toBe(3);
    // Every row — parallel steps and each forEach iteration included — shows its duration, never "—".
    const durations = await timeline.locator('[role=rowgroup]:not(.head) [role=cell].duration').allTextContents();
    expect(durations).toHaveLength(8);
    for (const text of durations) expect(text).toMatch(/^\d+ ms$/);
    // Parallel steps are lanes of their own whose bars start together on the time axis, after build's.
    const bar = (name: RegExp) => timeline.getByRole('img', { name }).boundingBox();
    const [unitTests, lint, build] = await Promise.all([bar(/^unit_tests:/), bar(/^lint:/), bar(/^build:/)]);
    expect(lint!.y).toBeGreaterThan(unitTests!.y);
    expect(lint!.x).toBe(unitTests!.x);
    expect(build!.y).toBeLessThan(unitTests!.y);
    expect(unitTests!.x).toBeGreaterThanOrEqual(build!.x + build!.width - 1);
    // The conversation holds the trace: the scale step's result names the answer.
    await expect(runSection.getByRole('list', { name: 'Conversation' }).textContent()).resolves.toContain('"replicas":3');
  });

  it('runs the workflow as a tool from Run as tool, its question answered in the page', async () => {
    const runSection = await run('deploy_service', { service: 'web' }, 'Run as tool');
    const question = runSection.getByRole('form', { name: 'How many replicas of web?' });
    await question.getByRole('textbox', { name: 'Replicas', exact: true }).fill('2');
    await question.getByRole('button', { name: 'Answer' }).click();
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await expect(runSection.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('completed');
    await expect(runSection.getByRole('heading', { level: 3 }).textContent()).resolves.toContain('deploy_service (tool)');
  });

  it('declining the question ends the run cancelled, with the reason', async () => {
    const runSection = await run('deploy_service', { service: 'api' });
    await runSection.getByRole('form', { name: 'How many replicas of api?' }).getByRole('button', { name: 'Decline' }).click();
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await expect(runSection.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('cancelled');
    await expect(runSection.getByLabel('Reason').textContent()).resolves.toContain('declined by the user');
  });

  it('shows a failed run with its reason and the failed step', async () => {
    const runSection = await run('charge_card', { amount: '12' });
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await expect(runSection.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('failed');
    await expect(runSection.getByLabel('Reason').textContent()).resolves.toContain('card declined by the bank');
    await expect(runSection.getByRole('row', { name: /^charge\b.*failed/ }).count()).resolves.toBe(1);
  });

  it('shows a handoff with what remains', async () => {
    const runSection = await run('summarize_notes', { notes: 'standup' });
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await expect(runSection.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('handoff');
    await expect(runSection.getByRole('row', { name: /^summary\b.*handoff/ }).count()).resolves.toBe(1);
  });
});
