// The studio's Inspector (DESIGN §2.15) in a real browser: the fixture server's plain tools, each
// called from a form typed by its input schema (a number box, a checkbox, a select), its plain
// prompts, got from a form of their arguments, and its resources, read with a button — over stdio and over HTTP.
import type { Browser } from 'playwright-core';
import { fixtureServer, launchChromium, startStudioOn, type Studio } from './studio-session';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe.each(['stdio', 'http'] as const)('the Inspector, fixture server over %s', (transport) => {
  let studio: Studio;
  beforeAll(async () => {
    studio = await startStudioOn(transport, fixtureServer, ['--sdk', '2']);
  });
  afterAll(async () => {
    await studio?.close();
  });

  it('calls a plain tool from a form typed by its schema (number, boolean, enum) and shows its result; workflows are not listed as tools', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      const inspector = page.getByRole('region', { name: 'Inspector' });
      const form = inspector.getByRole('form', { name: 'Call resize' });
      // A number argument is a number box (role spinbutton), a boolean a checkbox, an enum a select.
      await form.getByRole('spinbutton', { name: 'width (required)' }).fill('640');
      await form.getByRole('checkbox', { name: 'keepRatio (required)' }).check();
      await form.getByRole('combobox', { name: 'format (required)' }).selectOption({ label: 'jpeg' });
      // An optional string is a text box, not marked required.
      await expect(form.getByRole('textbox', { name: 'note', exact: true }).count()).resolves.toBe(1);
      await form.getByRole('button', { name: 'Call' }).click();
      const result = inspector.getByLabel('Result of resize');
      await result.filter({ hasText: 'resized' }).waitFor();
      const shown = JSON.parse((await result.textContent())!) as { structuredContent: unknown };
      // The number went as a number and the boolean as a boolean: the tool's own schema accepted them.
      expect(shown.structuredContent).toEqual({ resized: '640px jpeg keeping its ratio', width: 640 });
      await expect(inspector.getByRole('form', { name: 'Call deploy_service' }).count()).resolves.toBe(0);
    } finally {
      await page.close();
    }
  });

  it('gets a plain prompt from a form of its arguments and shows its messages; a missing required argument shows the server’s error', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      const prompt = page.getByRole('region', { name: 'Inspector' }).getByRole('region', { name: 'Prompt review_code' });
      const form = prompt.getByRole('form', { name: 'Get review_code' });
      // The required argument is marked; the optional one is not. Workflow prompts are not listed here.
      await form.getByRole('textbox', { name: 'file (required)' }).waitFor();
      await expect(form.getByRole('textbox', { name: 'focus', exact: true }).count()).resolves.toBe(1);
      await expect(page.getByRole('form', { name: 'Get charge_card' }).count()).resolves.toBe(0);

      // Nothing given: the server's own error (its argument check), shown as it said it.
      await form.getByRole('button', { name: 'Get' }).click();
      const error = prompt.getByRole('alert');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/file/);

      await form.getByRole('textbox', { name: 'file (required)' }).fill('src/<b>main</b>.ts');
      await form.getByRole('textbox', { name: 'focus', exact: true }).fill('error handling');
      await form.getByRole('button', { name: 'Get' }).click();
      const messages = prompt.getByRole('list', { name: 'Messages of review_code' });
      await messages.waitFor();
      await expect(messages.getByRole('listitem').count()).resolves.toBe(1);
      // The message text as the server returned it, shown as text (its markup is not markup).
      expect(await messages.getByRole('listitem').textContent()).toBe('userPlease review src/<b>main</b>.ts, looking at error handling.');
      await expect(prompt.getByRole('alert').count()).resolves.toBe(0);
    } finally {
      await page.close();
    }
  });

  it('reads a resource and shows its contents', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(studio.url);
      const resources = page.getByRole('region', { name: 'Inspector' }).getByRole('list', { name: 'Resources' });
      await resources.getByRole('button', { name: 'Read notes://readme' }).click();
      await resources.getByLabel('Contents of notes://readme').filter({ hasText: 'three workflows and their tools' }).waitFor();
    } finally {
      await page.close();
    }
  });
});
