// A run's conversation: each message's role and its text or embedded resource.
import { h } from './dom';
import type { Run } from './types';

function contentOf(content: Run['messages'][number]['content']): Node {
  if (content.type === 'text') return h('pre', {}, content.text ?? '');
  if (content.type === 'resource' && content.resource) {
    const { uri, mimeType, text } = content.resource;
    return h(
      'div',
      { class: 'resource' },
      h('p', {}, `Resource ${uri}${mimeType ? ` (${mimeType})` : ''}`),
      h('pre', {}, text ?? '(binary)'),
    );
  }
  return h('pre', {}, JSON.stringify(content, null, 2));
}

export function conversation(run: Run): HTMLElement {
  return h(
    'ol',
    { class: 'conversation', 'aria-label': 'Conversation' },
    ...run.messages.map((message) => h('li', { class: message.role }, h('strong', {}, message.role), contentOf(message.content))),
  );
}
