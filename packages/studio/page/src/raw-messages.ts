// A run's raw JSON-RPC messages (GET /api/runs/:runId/messages): a collapsible section of the run
// view, one <pre> a message, shown as text (never HTML). Loaded when opened, then again each time
// the page's one event stream says the run has a new message (while it is open), and when the run ends.
import { api } from './api';
import { h, show } from './dom';
import { watchMessages } from './event-stream';

/** One message as the API gives it: its direction and its JSON (capped by the server). */
export interface WireEntry {
  readonly direction: 'sent' | 'received';
  readonly text: string;
}

/** The "Raw messages" section of run `runId`, and `refresh` to load it again (when it is open). */
export function rawMessages(runId: string): { element: HTMLDetailsElement; refresh: () => void } {
  const list = h('div', { class: 'raw-list' });
  const element = h('details', { class: 'raw-messages' }, h('summary', {}, 'Raw messages'), list);
  // One read at a time: notices that arrive meanwhile make one more read when it ends.
  let reading = false;
  let again = false;
  const refresh = (): void => {
    if (!element.open) return;
    if (reading) return void (again = true);
    reading = true;
    const done = (): void => {
      reading = false;
      if (again) {
        again = false;
        refresh();
      }
    };
    api
      .runMessages(runId)
      .then(
        ({ messages, dropped }) =>
          show(
            list,
            dropped > 0 && h('p', {}, `${dropped} older messages not kept.`),
            messages.length === 0 && h('p', {}, 'No messages yet.'),
            ...messages.map((message) =>
              h(
                'pre',
                { class: `raw ${message.direction}`, 'aria-label': message.direction === 'sent' ? 'Sent' : 'Received' },
                `${message.direction === 'sent' ? '→ sent' : '← received'}\n${message.text}`,
              ),
            ),
          ),
        (error: Error) => show(list, h('p', { class: 'error', role: 'alert' }, error.message)),
      )
      .finally(done);
  };
  let unwatch: (() => void) | undefined;
  element.addEventListener('toggle', () => {
    unwatch?.();
    unwatch = element.open ? watchMessages(runId, refresh) : undefined;
    refresh();
  });
  return { element, refresh };
}
