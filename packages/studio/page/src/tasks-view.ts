// Tasks started from the page: workflow, status, and Cancel while a task is not finished.
import { api } from './api';
import { h, show } from './dom';
import type { TaskRow } from './types';

const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const POLL_MS = 1000;

function row(task: TaskRow, refresh: () => void, open: (task: TaskRow) => void): HTMLElement {
  const cancel = h(
    'button',
    {
      type: 'button',
      'aria-label': `Cancel task ${task.taskId} of ${task.workflow}`,
      onclick: () => {
        cancel.disabled = true;
        api.cancelTask(task.taskId).then(refresh, (error: Error) => {
          cancel.disabled = false;
          cancel.after(h('span', { class: 'error', role: 'alert' }, error.message));
        });
      },
    },
    'Cancel',
  );
  return h(
    'tr',
    {},
    h('td', {}, task.workflow),
    h('td', {}, h('code', {}, task.taskId)),
    h('td', { class: `status ${task.status}` }, task.status, task.statusMessage && ` — ${task.statusMessage}`),
    h(
      'td',
      {},
      // A task waiting on a question (after a reload too) is answered in its run: Open shows it.
      h('button', { type: 'button', 'aria-label': `Open the run of task ${task.taskId}`, onclick: () => open(task) }, 'Open'),
      FINISHED.has(task.status) ? '' : cancel,
    ),
  );
}

/** Keeps the task table current; the returned function refreshes it at once (after a start or a cancel). */
export function watchTasks(element: Element, open: (task: TaskRow) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const refresh = (): void => {
    clearTimeout(timer);
    api.tasks().then(
      ({ tasks }) => {
        show(
          element,
          h('h2', {}, 'Tasks'),
          tasks.length === 0
            ? h('p', {}, 'No tasks yet.')
            : h(
                'table',
                { 'aria-label': 'Tasks' },
                h('thead', {}, h('tr', {}, h('th', {}, 'Workflow'), h('th', {}, 'Task'), h('th', {}, 'Status'), h('th', {}, 'Action'))),
                h('tbody', {}, ...tasks.map((task) => row(task, refresh, open))),
              ),
        );
        // Poll only while a task may still change.
        if (tasks.some((task) => !FINISHED.has(task.status))) timer = setTimeout(refresh, POLL_MS);
      },
      () => (timer = setTimeout(refresh, POLL_MS)),
    );
  };
  refresh();
  return refresh;
}
