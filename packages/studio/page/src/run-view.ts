// One run as it goes: live progress (SSE), the questions it asks, then its status, reason,
// conversation and timeline.
import { api } from './api';
import { conversation } from './conversation';
import { h, show } from './dom';
import { questionForm } from './question-form';
import { rawMessages } from './raw-messages';
import { addRerunControls, rerunOrigin, runAnchor } from './rerun';
import { timeline } from './timeline';
import { markRunningStep } from './graph';
import type { Face, Progress, Question, Run, TaskEvent } from './types';

function progressText(event: Progress): string {
  const amount = event.total === undefined ? `${event.progress}` : `${event.progress}/${event.total}`;
  return `${amount}${event.message ? ` ${event.message}` : ''} (${Math.round(event.at)} ms)`;
}

function result(element: Element, run: Run): void {
  show(
    element,
    h('p', {}, 'Status: ', h('strong', { class: `status ${run.status}`, 'aria-label': 'Status' }, run.status)),
    run.reason && h('p', { class: 'reason', 'aria-label': 'Reason' }, run.reason),
    h('h4', {}, 'Timeline'),
    timeline(run.timeline),
    h('h4', {}, 'Conversation'),
    conversation(run),
  );
}

/**
 * A section for run `runId` of `workflow`, following its events until the result arrives.
 * `onTask` hears of a task the run became, so the task list can show it; `onRerun` of a rerun
 * started from it (rerun.ts).
 */
export function runView(runId: string, workflow: string, face: Face, onTask: () => void, onRerun?: (runId: string) => void): HTMLElement {
  const status = h('strong', { class: 'status running', 'aria-label': 'Status' }, 'running');
  const progress = h('ol', { class: 'progress', 'aria-label': 'Progress', 'aria-live': 'polite' });
  const questions = h('div', { class: 'questions' });
  const outcome = h('div', { class: 'outcome' }, h('p', {}, 'Status: ', status));
  const raw = rawMessages(runId);
  const section = h(
    'section',
    { class: 'run', 'aria-label': `Run of ${workflow}`, id: runAnchor(runId) },
    h('h3', {}, `${workflow} (${face}) — run ${runId}`),
    progress,
    questions,
    outcome,
    raw.element,
  );
  const open = new Map<string, HTMLFormElement>();

  const events = new EventSource(api.eventsUrl(runId));
  const on = <T>(type: string, handle: (data: T) => void): void =>
    events.addEventListener(type, (event) => handle(JSON.parse((event as MessageEvent<string>).data) as T));
  on<Progress>('progress', (event) => progress.append(h('li', {}, progressText(event))));
  on<Question>('question', (question) => {
    if (open.has(question.questionId)) return;
    const form = questionForm(question, (answer) =>
      api.answer(runId, { questionId: question.questionId, ...answer }).then(() => undefined),
    );
    open.set(question.questionId, form);
    questions.append(form);
    form.querySelector<HTMLElement>('input, select')?.focus();
  });
  on<{ questionId: string }>('question-closed', ({ questionId }) => {
    open.get(questionId)?.remove();
    open.delete(questionId);
  });
  on<TaskEvent>('task', (task) => {
    status.textContent = task.status;
    markRunningStep(workflow, task.step?.stepIndex);
    onTask();
  });
  on<Run>('result', (run) => {
    events.close();
    for (const form of open.values()) form.remove();
    open.clear();
    result(outcome, run);
    const origin = rerunOrigin(run);
    if (origin) section.querySelector('h3')?.after(origin);
    if (onRerun) addRerunControls(outcome, run, onRerun);
    raw.refresh();
    onTask();
  });
  // `error` is both the server's event (with data) and EventSource's own (connection lost; it retries).
  events.addEventListener('error', (event) => {
    const data = (event as MessageEvent<string>).data;
    if (data) outcome.append(h('p', { class: 'error', role: 'alert' }, (JSON.parse(data) as { error: string }).error));
    else if (events.readyState === EventSource.CONNECTING) progress.append(h('li', { class: 'error' }, 'Reconnecting to the run…'));
  });
  return section;
}
