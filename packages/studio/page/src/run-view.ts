// One run as it goes: live progress (SSE), the questions it asks, then its status, reason,
// conversation and timeline.
import { api } from './api';
import { conversation } from './conversation';
import { h, show } from './dom';
import { followRun, runEnded, stepChanged } from './graph';
import { elapsedWords, progressWords } from './progress-words';
import { questionForm } from './question-form';
import { timeline } from './timeline';
import type { Face, Progress, Question, Run, StepState } from './types';

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
 * `onTask` hears of a task the run became, so the task list can show it.
 */
export function runView(runId: string, workflow: string, face: Face, onTask: () => void): HTMLElement {
  const status = h('strong', { class: 'status running', 'aria-label': 'Status' }, 'running');
  const now = h('p', { class: 'now', role: 'status', 'aria-label': 'Where the run is' }, 'Starting…');
  const progress = h('ol', { class: 'progress', 'aria-label': 'Progress' });
  const questions = h('div', { class: 'questions' });
  const outcome = h('div', { class: 'outcome' }, h('p', {}, 'Status: ', status));
  const section = h(
    'section',
    { class: 'run', 'aria-label': `Run of ${workflow}` },
    h('h3', {}, `${workflow} (${face}) — run ${runId}`),
    now,
    progress,
    questions,
    outcome,
  );
  followRun(workflow, runId);
  const open = new Map<string, HTMLFormElement>();

  const events = new EventSource(api.eventsUrl(runId));
  const on = <T>(type: string, handle: (data: T) => void): void =>
    events.addEventListener(type, (event) => handle(JSON.parse((event as MessageEvent<string>).data) as T));
  on<Progress>('progress', (event) => {
    // The client's own rounds of answers say nothing of where the run is.
    if (!event.message?.startsWith('Fulfilling input required')) now.textContent = progressWords(event);
    progress.append(h('li', {}, progressWords(event), h('small', {}, ` ${elapsedWords(event.at)}`)));
  });
  on<StepState>('step', (state) => stepChanged(workflow, runId, state));
  on<Question>('question', (question) => {
    if (open.has(question.questionId)) return;
    const form = questionForm(question, (answer) =>
      api.answer(runId, { questionId: question.questionId, ...answer }).then(() => undefined),
    );
    open.set(question.questionId, form);
    now.textContent = 'Waiting for your answer';
    questions.append(form);
    form.querySelector<HTMLElement>('input, select')?.focus();
  });
  on<{ questionId: string }>('question-closed', ({ questionId }) => {
    open.get(questionId)?.remove();
    open.delete(questionId);
  });
  on<{ taskId: string; status: string }>('task', (task) => {
    status.textContent = task.status;
    onTask();
  });
  on<Run>('result', (run) => {
    events.close();
    for (const form of open.values()) form.remove();
    open.clear();
    result(outcome, run);
    now.remove();
    runEnded(workflow, runId, run.steps, run.io);
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
