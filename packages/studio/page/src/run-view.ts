// One run as it goes: live progress (the page's event stream), the questions it asks, then its
// status, reason, conversation and timeline.
import { api } from './api';
import { conversation } from './conversation';
import { h, show } from './dom';
import { followRun } from './event-stream';
import { followRun as followGraph, runEnded, stepChanged } from './graph';
import { elapsedWords, progressWords } from './progress-words';
import { questionForm } from './question-form';
import { rawMessages } from './raw-messages';
import { addRerunControls, rerunOrigin, runAnchor } from './rerun';
import { timeline } from './timeline';
import type { Face, Progress, Question, Run, StepState, TaskEvent } from './types';

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
  const now = h('p', { class: 'now', role: 'status', 'aria-label': 'Where the run is' }, 'Starting…');
  const progress = h('ol', { class: 'progress', 'aria-label': 'Progress' });
  const questions = h('div', { class: 'questions' });
  const cancel = h(
    'button',
    { type: 'button', class: 'cancel', onclick: () => void api.cancelRun(runId).catch(() => undefined) },
    'Cancel',
  );
  const outcome = h('div', { class: 'outcome' }, h('p', {}, 'Status: ', status, ' ', cancel));
  const raw = rawMessages(runId);
  // The version the run started or resumed on (DESIGN §2.16): shown once its server says it.
  const version = h('span', { class: 'version', 'aria-label': 'Version' });
  const showVersion = (said: string | undefined): void => {
    if (said !== undefined) version.textContent = `version ${said}`;
  };
  const section = h(
    'section',
    { class: 'run', 'aria-label': `Run of ${workflow}`, id: runAnchor(runId), 'data-run-id': runId },
    h('h3', {}, `${workflow} (${face}) — run ${runId}`, version),
    now,
    progress,
    questions,
    outcome,
    raw.element,
  );
  followGraph(workflow, runId);
  const open = new Map<string, HTMLFormElement>();

  const handlers = new Map<string, (data: any) => void>();
  const on = <T>(type: string, handle: (data: T) => void): void => void handlers.set(type, handle);
  on<Progress>('progress', (event) => {
    now.textContent = progressWords(event);
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
  on<TaskEvent>('task', (task) => {
    status.textContent = task.status;
    showVersion(task.version);
    onTask();
  });
  on<Run>('result', (run) => {
    unfollow();
    for (const form of open.values()) form.remove();
    open.clear();
    result(outcome, run);
    showVersion(run.version);
    now.remove();
    runEnded(workflow, runId, run.steps, run.io);
    const origin = rerunOrigin(run);
    if (origin) section.querySelector('h3')?.after(origin);
    if (onRerun) addRerunControls(outcome, run, onRerun);
    raw.refresh();
    onTask();
  });
  on<{ error: string }>('error', ({ error }) => outcome.append(h('p', { class: 'error', role: 'alert' }, error)));
  const unfollow = followRun(runId, (type, data) => handlers.get(type)?.(data));
  return section;
}
