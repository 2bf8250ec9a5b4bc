// The live graph and the bar timeline in a real browser (Debian's chromium), against `mcpflow dev`
// and the fixture server: each step's node carries its status (`data-status`, and its accessible
// name ends with it) while the run goes on and after it; a click on a node shows the step's input
// and output as the server's trace shows them, sensitive values redacted; the timeline draws a bar a
// step or item on one time axis.
import type { Browser, Page } from 'playwright-core';
import { fixtureServer, launchChromium, startStudioOn, type Studio } from './studio-session';

const targets: { transport: 'stdio' | 'http'; sdk: 1 | 2 }[] = [
  { transport: 'stdio', sdk: 2 },
  { transport: 'http', sdk: 1 },
];

const SECRET = 'sk-live-7f3a9c1e55';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(targets)('the live graph, $transport server on SDK $sdk', ({ transport, sdk }) => {
  let studio: Studio;
  let page: Page;

  beforeAll(async () => {
    studio = await startStudioOn(transport, fixtureServer, ['--sdk', String(sdk)]);
  });
  afterAll(async () => {
    await studio?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(studio.url);
  });
  afterEach(async () => {
    await page.close();
  });

  async function run(workflow: string, args: Record<string, string>) {
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: workflow, exact: true }).click();
    await graph(workflow).locator('g.node[data-step]').first().waitFor();
    const form = page.getByRole('form', { name: `Arguments of ${workflow}` });
    for (const [name, value] of Object.entries(args)) await form.getByRole('textbox', { name, exact: true }).fill(value);
    await form.getByRole('button', { name: 'Run', exact: true }).click();
    return page.getByRole('region', { name: `Run of ${workflow}` }).first();
  }
  const graph = (workflow: string) => page.getByRole('figure', { name: `Graph of ${workflow}` });
  /** Waits until step `step`'s node shows `status`. */
  const nodeShows = (workflow: string, step: string, status: string) =>
    graph(workflow).locator(`g.node[data-step="${step}"][data-status="${status}"]`).waitFor({ state: 'attached' });
  const statuses = (workflow: string) =>
    graph(workflow)
      .locator('g.node[data-step]')
      .evaluateAll((nodes) => nodes.map((node) => `${node.getAttribute('data-step')} ${node.getAttribute('data-status')}`));

  it('colours each node while the run goes on: the step asking the user is waiting, the earlier ones completed; then all completed', async () => {
    await page.getByRole('navigation', { name: 'Workflows' }).getByRole('button', { name: 'deploy_service', exact: true }).click();
    await graph('deploy_service').locator('g.node[data-step]').first().waitFor();
    // Before any run: every step pending.
    expect(await statuses('deploy_service')).toEqual([
      'build pending',
      'unit_tests pending',
      'lint pending',
      'ship pending',
      'scale pending',
    ]);

    const runSection = await run('deploy_service', { service: 'api' });
    const question = runSection.getByRole('form', { name: 'How many replicas of api?' });
    await question.waitFor();
    await nodeShows('deploy_service', 'scale', 'waiting');
    expect(await statuses('deploy_service')).toEqual([
      'build completed',
      'unit_tests completed',
      'lint completed',
      'ship completed',
      'scale waiting',
    ]);
    // The node's accessible name ends with its status.
    await graph('deploy_service').getByRole('button', { name: 'scale: waiting', exact: true }).waitFor();
    await expect(runSection.getByLabel('Status', { exact: true }).textContent()).resolves.toBe('running');
    // Progress in plain words, never "4.5/5".
    await expect(runSection.getByRole('list', { name: 'Progress' }).textContent()).resolves.toContain('Step 1 of 5: build');
    await expect(runSection.getByRole('list', { name: 'Progress' }).textContent()).resolves.not.toMatch(/\d\/\d/);

    await question.getByRole('textbox', { name: 'Replicas', exact: true }).fill('3');
    await question.getByRole('button', { name: 'Answer', exact: true }).click();
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await nodeShows('deploy_service', 'scale', 'completed');
    expect(await statuses('deploy_service')).toEqual([
      'build completed',
      'unit_tests completed',
      'lint completed',
      'ship completed',
      'scale completed',
    ]);

    // A click on a node shows the step's input and output as JSON.
    await graph('deploy_service').getByRole('button', { name: 'build: completed', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Step build' });
    expect(JSON.parse((await panel.getByLabel('Input of build').textContent())!)).toEqual({ service: 'api' });
    expect(JSON.parse((await panel.getByLabel('Output of build').textContent())!)).toEqual({ artifact: 'api.tgz' });
    // Two parallel steps call the same tool; a forEach step's input is one per item.
    await graph('deploy_service').getByRole('button', { name: 'ship: completed', exact: true }).click();
    const ship = page.getByRole('region', { name: 'Step ship' });
    expect(JSON.parse((await ship.getByLabel('Input of ship').textContent())!)).toEqual([
      { region: 'eu' },
      { region: 'us' },
      { region: 'ap' },
    ]);
    await graph('deploy_service').getByRole('button', { name: 'scale: completed', exact: true }).press('Enter');
    const scale = page.getByRole('region', { name: 'Step scale' });
    expect(JSON.parse((await scale.getByLabel('Output of scale').textContent())!)).toEqual({ service: 'api', replicas: 3 });
  });

  it('on a failed run the failed step is failed, and its panel says why', async () => {
    const runSection = await run('charge_card', { amount: '12' });
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await nodeShows('charge_card', 'charge', 'failed');
    await graph('charge_card').getByRole('button', { name: 'charge: failed', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Step charge' });
    expect(JSON.parse((await panel.getByLabel('Input of charge').textContent())!)).toEqual({ amount: '12' });
    await expect(panel.getByLabel('Reason of charge').textContent()).resolves.toContain('card declined by the bank');
  });

  it('a step whose when is false is skipped; a sensitive argument shows redacted in the step panel, and nowhere raw', async () => {
    const runSection = await run('rotate_key', { api_key: SECRET, user: 'ada' });
    await runSection.getByRole('table', { name: 'Timeline' }).waitFor();
    await nodeShows('rotate_key', 'rotate', 'completed');
    expect(await statuses('rotate_key')).toEqual(['login completed', 'announce skipped', 'rotate completed']);
    await graph('rotate_key').getByRole('button', { name: 'login: completed', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Step login' });
    expect(JSON.parse((await panel.getByLabel('Input of login').textContent())!)).toEqual({ key: '[redacted]', user: 'ada' });
    expect(JSON.parse((await panel.getByLabel('Output of login').textContent())!)).toEqual({
      session: 'session-of-ada',
      key: '[redacted]',
    });
    await graph('rotate_key').getByRole('button', { name: 'announce: skipped', exact: true }).click();
    await expect(page.getByRole('region', { name: 'Step announce' }).getByLabel('Reason of announce').textContent()).resolves.toMatch(
      /when present\(promptArg\('channel'\)\) is false/,
    );
    // The key is only in the form the user typed it into.
    const shown = (await page.locator('body').innerText()) + (await page.locator('body').innerHTML());
    expect(shown).not.toContain(SECRET);
  });

  it('draws the timeline as bars on one time axis: parallel steps overlap in time, each forEach item a lane, every bar named', async () => {
    const runSection = await run('deploy_service', { service: 'db' });
    const question = runSection.getByRole('form', { name: 'How many replicas of db?' });
    await question.getByRole('textbox', { name: 'Replicas', exact: true }).fill('1');
    await question.getByRole('button', { name: 'Answer', exact: true }).click();
    const timeline = runSection.getByRole('table', { name: 'Timeline' });
    await timeline.waitFor();
    const bars = timeline.getByRole('img');
    const labels = await bars.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label')));
    expect(labels).toHaveLength(8);
    for (const label of labels)
      expect(label).toMatch(/^(build|unit_tests|lint|ship( #[123])?|scale): completed, \d+(\.\d+)? m?s from \d+(\.\d+)? m?s$/);
    const box = async (name: RegExp) => (await timeline.getByRole('img', { name }).boundingBox())!;
    const [build, unitTests, lint, ship1, ship2] = await Promise.all([
      box(/^build:/),
      box(/^unit_tests:/),
      box(/^lint:/),
      box(/^ship #1:/),
      box(/^ship #2:/),
    ]);
    // Lanes: one row each.
    expect(lint.y).toBeGreaterThan(unitTests.y);
    expect(ship2.y).toBeGreaterThan(ship1.y);
    // Parallel steps overlap on the axis, after build ended.
    expect(Math.max(unitTests.x, lint.x)).toBeLessThanOrEqual(Math.min(unitTests.x + unitTests.width, lint.x + lint.width) + 1);
    expect(Math.min(unitTests.x, lint.x)).toBeGreaterThanOrEqual(build.x + build.width - 1);
    // The axis is labelled with its span.
    await expect(timeline.getByRole('columnheader', { name: /^Time, 0 to \d/ }).count()).resolves.toBe(1);
  });
});
