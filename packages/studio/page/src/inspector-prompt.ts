// A plain prompt in the Inspector (DESIGN §2.15): a form of its arguments (the required ones
// marked), a Get button that calls `prompts/get`, and the messages it returned, each as text.
import { api } from './api';
import { h, show } from './dom';
import { field } from './inspector-field';
import type { InspectorListing } from './types';

type Prompt = InspectorListing['prompts'][number];

/** A message of a `prompts/get` result, styled as a run's conversation: its role and its content (text as text, anything else as JSON). */
function message(entry: { role?: unknown; content?: { type?: unknown; text?: unknown } }): HTMLElement {
  const text =
    entry.content?.type === 'text' && typeof entry.content.text === 'string' ? entry.content.text : JSON.stringify(entry.content, null, 2);
  const role = entry.role === 'assistant' ? 'assistant' : 'user';
  return h('li', { class: role }, h('strong', {}, role), h('pre', {}, text));
}

/** A section per plain prompt: its form, a Get button, and the messages (or the server's error). */
export function promptForm(prompt: Prompt): HTMLElement {
  const fields = prompt.arguments.map((argument) => ({ argument, ...field({ ...argument, type: 'text' }) }));
  const output = h('div', { class: 'prompt-result', 'aria-live': 'polite' });
  const form = h('form', { 'aria-label': `Get ${prompt.name}` }, ...fields.map(({ row }) => row), h('button', { type: 'submit' }, 'Get'));
  // The server checks what is required: a missing argument is its error to show, not the browser's.
  form.noValidate = true;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const args: Record<string, string> = {};
    for (const { argument, value } of fields) {
      const given = value();
      if (typeof given === 'string') args[argument.name] = given;
    }
    show(output, h('p', {}, 'Getting…'));
    api.getPrompt(prompt.name, args).then(
      ({ result }) => {
        const { messages, truncated } = result as { messages?: unknown; truncated?: string };
        const list = Array.isArray(messages) ? (messages as Parameters<typeof message>[0][]) : [];
        show(
          output,
          truncated && h('p', {}, truncated),
          h('ol', { class: 'conversation', 'aria-label': `Messages of ${prompt.name}` }, ...list.map(message)),
          list.length === 0 && !truncated && h('p', {}, 'The prompt returned no messages.'),
        );
      },
      (error: Error) => show(output, h('p', { class: 'error', role: 'alert' }, error.message)),
    );
  });
  return h(
    'section',
    { class: 'inspector-tool', 'aria-label': `Prompt ${prompt.name}` },
    h('h4', {}, prompt.name),
    prompt.description && h('p', {}, prompt.description),
    form,
    output,
  );
}
