// The Inspector (DESIGN §2.15): the server's plain tools, called from forms typed by their input
// schema, its prompts, got from a form of their arguments, and its resources, read with a button; each answer shown as JSON.
import { ApiError, api } from './api';
import { h, show } from './dom';
import { field } from './inspector-field';
import { promptForm } from './inspector-prompt';
import type { InspectorListing } from './types';

/** A section per plain tool: its form, a Call button, and the result. */
function toolForm(tool: InspectorListing['tools'][number]): HTMLElement {
  const fields = tool.inputs.map((input) => ({ input, ...field(input) }));
  const output = h('pre', { class: 'result', 'aria-label': `Result of ${tool.name}` });
  const form = h('form', { 'aria-label': `Call ${tool.name}` }, ...fields.map(({ row }) => row), h('button', { type: 'submit' }, 'Call'));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const args: Record<string, unknown> = {};
    for (const { input, value } of fields) {
      const given = value();
      if (given !== undefined) args[input.name] = given;
    }
    output.textContent = 'Calling…';
    api.callTool(tool.name, args).then(
      ({ result }) => (output.textContent = JSON.stringify(result, null, 2)),
      (error: Error) => (output.textContent = error instanceof ApiError ? error.message : `The call failed: ${error.message}`),
    );
  });
  return h(
    'section',
    { class: 'inspector-tool', 'aria-label': `Tool ${tool.name}` },
    h('h4', {}, tool.name),
    tool.description && h('p', {}, tool.description),
    form,
    output,
  );
}

/** A resource's row: its URI, a Read button, and what it holds. */
function resourceRow(resource: InspectorListing['resources'][number]): HTMLElement {
  const output = h('pre', { class: 'result', 'aria-label': `Contents of ${resource.uri}` });
  const read = h(
    'button',
    {
      type: 'button',
      'aria-label': `Read ${resource.uri}`,
      onclick: () =>
        api.readResource(resource.uri).then(
          ({ result }) => (output.textContent = JSON.stringify(result, null, 2)),
          (error: Error) => (output.textContent = error.message),
        ),
    },
    'Read',
  );
  return h('li', {}, h('code', {}, resource.uri), ` ${resource.name} `, read, output);
}

/** Fills `element` with the Inspector: plain tools, prompts and resources of the server. */
export async function showInspector(element: Element): Promise<void> {
  try {
    const listing = await api.inspector();
    show(
      element,
      h('h2', {}, 'Inspector'),
      h('h3', {}, 'Tools'),
      listing.tools.length === 0 ? h('p', {}, 'No plain tools.') : h('div', {}, ...listing.tools.map(toolForm)),
      h('h3', {}, 'Prompts'),
      listing.prompts.length === 0
        ? h('p', {}, 'No plain prompts.')
        : h('div', { 'aria-label': 'Prompts' }, ...listing.prompts.map(promptForm)),
      h('h3', {}, 'Resources'),
      h('ul', { 'aria-label': 'Resources' }, ...listing.resources.map(resourceRow)),
    );
  } catch (error) {
    show(element, h('p', { class: 'error', role: 'alert' }, `The server's tools could not be listed: ${(error as Error).message}`));
  }
}
