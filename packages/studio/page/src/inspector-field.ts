// One input of an Inspector form (a tool's or a prompt's), typed by what the server lists.
import { h, uniqueId } from './dom';
import type { InspectorInput } from './types';

/** One input of a form: a number box, a checkbox, a select of the choices, or a text box. */
export function field(input: InspectorInput): { row: HTMLElement; value: () => unknown } {
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
