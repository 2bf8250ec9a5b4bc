// The Inspector (DESIGN §2.15): the server's plain tools, called from forms typed by their input
// schema, its prompts, and its resources, read with a button; each answer shown as JSON.
import { ApiError, api } from './api';
import { h, show, uniqueId } from './dom';
import type { InspectorInput, InspectorListing } from './types';

/** One input of a tool's form: a number box, a checkbox, a select of the choices, or a text box. */
function field(input: InspectorInput): { row: HTMLElement; value: () => unknown } {
  const id = uniqueId('tool-arg');
  const label = h('label', { for: id }, input.name, input.required ? ' (required)' : '');
  if (input.type === 'boolean') {
    const box = h('input', { id, type: 'checkbox', name: input.name });
    return { row: h('div', { class: 'field' }, box, label), value: () => box.checked };
  }
  if (input.type === 'enum') {
    const choices = input.choices ?? [];
    const select = h(
      'select',
      { id, name: input.name, required: input.required },
      input.required ? null : h('option', { value: '' }, ''),
      ...choices.map((choice, index) => h('option', { value: String(index) }, String(choice))),
    );
    return {
      row: h('div', { class: 'field' }, label, select),
      value: () => (select.value === '' ? undefined : choices[Number(select.value)]),
    };
  }
  const number = input.type === 'number' || input.type === 'integer';
  const box = h('input', {
    id,
    name: input.name,
    type: number ? 'number' : 'text',
    step: input.type === 'integer' ? '1' : number ? 'any' : undefined,
    required: input.required,
  });
  const value = () => (box.value === '' ? undefined : number ? Number(box.value) : box.value);
  return { row: h('div', { class: 'field' }, label, box, input.description && h('small', {}, input.description)), value };
}

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
      h(
        'ul',
        { 'aria-label': 'Prompts' },
        ...listing.prompts.map((prompt) => h('li', {}, prompt.name, prompt.description && ` — ${prompt.description}`)),
      ),
      h('h3', {}, 'Resources'),
      h('ul', { 'aria-label': 'Resources' }, ...listing.resources.map(resourceRow)),
    );
  } catch (error) {
    show(element, h('p', { class: 'error', role: 'alert' }, `The server's tools could not be listed: ${(error as Error).message}`));
  }
}
