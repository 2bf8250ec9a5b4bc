// A question the server asked (an elicitation form): one input per field, Answer and Decline.
import { ApiError } from './api';
import { h, uniqueId } from './dom';
import type { Question } from './types';

type Reply = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' };

/** A field's value as the schema types it; text that is no number is sent as typed, for the server to name the field. */
function typed(type: string | undefined, input: HTMLInputElement | HTMLSelectElement): unknown {
  if (input instanceof HTMLInputElement && input.type === 'checkbox') return input.checked;
  if ((type === 'number' || type === 'integer') && input.value.trim() !== '' && !Number.isNaN(Number(input.value)))
    return Number(input.value);
  return input.value;
}

function inputFor(name: string, property: NonNullable<Question['requestedSchema']['properties']>[string], required: boolean, id: string) {
  if (property.enum) {
    return h('select', { id, name, required }, ...property.enum.map((value) => h('option', { value: String(value) }, String(value))));
  }
  if (property.type === 'boolean') return h('input', { id, name, type: 'checkbox', checked: property.default === true });
  // number fields are text inputs too: a wrong type reaches the server, which says which field is wrong.
  const input = h('input', { id, name, type: 'text', required, inputmode: property.type === 'string' ? undefined : 'decimal' });
  if (property.default !== undefined) input.value = String(property.default);
  return input;
}

/**
 * The question as a form. `reply` posts the answer; a refused answer (400 naming a field) marks
 * that field and keeps the form open. The caller removes the form when the question closes.
 */
export function questionForm(question: Question, reply: (answer: Reply) => Promise<void>): HTMLFormElement {
  const properties = question.requestedSchema.properties ?? {};
  const required = new Set(question.requestedSchema.required ?? []);
  const error = h('p', { class: 'error', role: 'alert' });
  const fields = Object.entries(properties).map(([name, property]) => {
    const id = uniqueId('field');
    const input = inputFor(name, property, required.has(name), id);
    const row = h(
      'div',
      { class: 'field' },
      h('label', { for: id }, property.title ?? name),
      input,
      property.description && h('small', {}, property.description),
    );
    return { name, property, input, row };
  });
  const form = h(
    'form',
    { class: 'question', 'aria-label': question.message },
    h('p', { class: 'message' }, question.message),
    ...fields.map(({ row }) => row),
  );
  let action: Reply['action'] = 'accept';
  form.append(
    h(
      'div',
      { class: 'buttons' },
      h('button', { type: 'submit', onclick: () => (action = 'accept') }, 'Answer'),
      h('button', { type: 'submit', formnovalidate: true, onclick: () => (action = 'decline') }, 'Decline'),
    ),
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    for (const { input } of fields) input.removeAttribute('aria-invalid');
    error.textContent = '';
    const answer: Reply =
      action === 'decline'
        ? { action }
        : { action, content: Object.fromEntries(fields.map(({ name, property, input }) => [name, typed(property.type, input)])) };
    reply(answer).catch((failure: unknown) => {
      const field = failure instanceof ApiError ? fields.find(({ name }) => name === failure.field) : undefined;
      if (field) {
        field.input.setAttribute('aria-invalid', 'true');
        field.input.setAttribute('aria-errormessage', (error.id ||= uniqueId('error')));
        field.input.focus();
      }
      const label = field ? `${field.property.title ?? field.name}: ` : '';
      error.textContent = `${label}${(failure as Error).message}`;
    });
  });
  return form;
}
