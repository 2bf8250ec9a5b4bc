// The runs panel: every run the studio keeps (this page's, an earlier page's, an earlier studio's
// with --history), newest first, filtered by workflow; Open shows a run, Cancel stops one that runs.
import { api } from './api';
import { h, show, uniqueId } from './dom';
import { watchRuns } from './event-stream';
import type { RunList, RunSummary } from './types';

const ARGUMENTS_SHOWN = 120;
const RELOAD_MS = 300;

function argumentsText(args: Record<string, unknown>): string {
  const text = JSON.stringify(args);
  return text.length > ARGUMENTS_SHOWN ? `${text.slice(0, ARGUMENTS_SHOWN)}…` : text;
}

function statusText(run: RunSummary): string {
  const status = run.taskStatus ?? run.status;
  return run.openQuestions > 0 ? `${status} (waiting on an answer)` : status;
}

function row(run: RunSummary, open: (run: RunSummary) => void): HTMLElement {
  const cancel =
    run.status === 'running' &&
    h(
      'button',
      {
        type: 'button',
        'aria-label': `Cancel run ${run.runId} of ${run.workflow}`,
        onclick: (event: Event) => {
          (event.currentTarget as HTMLButtonElement).disabled = true;
          void api.cancelRun(run.runId).catch(() => undefined);
        },
      },
      'Cancel',
    );
  return h(
    'tr',
    { 'data-run-id': run.runId },
    h('td', {}, run.workflow),
    h('td', {}, run.face),
    h('td', { class: 'version' }, run.version ?? ''),
    h('td', {}, new Date(run.startedAt).toLocaleTimeString('en-GB')),
    h('td', { class: `status ${run.status}` }, statusText(run)),
    h('td', {}, h('code', { class: 'arguments' }, argumentsText(run.arguments))),
    h(
      'td',
      {},
      h('button', { type: 'button', 'aria-label': `Open run ${run.runId} of ${run.workflow}`, onclick: () => open(run) }, 'Open'),
      cancel,
    ),
  );
}

/** Keeps the runs panel in `element` current from the page's event stream; `open` shows a run. */
export function watchRunsPanel(element: Element, open: (run: RunSummary) => void): void {
  const runs = new Map<string, RunSummary>();
  let kept: RunList['kept'] | undefined;
  let problem: string | undefined;
  let filter = '';
  let drawing = false;
  const selectId = uniqueId('filter');

  const draw = (): void => {
    drawing = false;
    const workflows = [...new Set([...runs.values()].map((run) => run.workflow))].sort();
    if (filter !== '' && !workflows.includes(filter)) filter = '';
    const select = h(
      'select',
      { id: selectId, onchange: (event: Event) => ((filter = (event.target as HTMLSelectElement).value), draw()) },
      h('option', { value: '' }, 'All workflows'),
      ...workflows.map((name) => h('option', { value: name, selected: name === filter }, name)),
    );
    const shown = [...runs.values()].filter((run) => filter === '' || run.workflow === filter).reverse();
    show(
      element,
      h('h2', {}, 'Runs'),
      problem && h('p', { class: 'error', role: 'alert' }, problem),
      h('p', { class: 'filter' }, h('label', { for: selectId }, 'Workflow '), select),
      shown.length === 0
        ? h('p', {}, 'No runs yet.')
        : h(
            'table',
            { 'aria-label': 'Runs', class: 'runs-table' },
            h(
              'thead',
              {},
              h('tr', {}, ...['Workflow', 'Face', 'Version', 'Started', 'Status', 'Arguments', 'Action'].map((name) => h('th', {}, name))),
            ),
            h('tbody', {}, ...shown.map((run) => row(run, open))),
          ),
      kept &&
        h(
          'p',
          { class: 'kept' },
          `The studio keeps the last ${kept.maxRuns} runs and ${Math.round(kept.maxBytes / 1024 / 1024)} MiB of them; older runs are dropped.`,
        ),
    );
  };
  const redraw = (): void => {
    if (drawing) return;
    drawing = true;
    requestAnimationFrame(draw);
  };

  const reload = (): void =>
    void api.runs().then(
      (list) => {
        runs.clear();
        for (const run of list.runs) runs.set(run.runId, run);
        kept = list.kept;
        problem = list.historyProblem;
        redraw();
      },
      () => undefined,
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  watchRuns((summary) => {
    runs.set(summary.runId, summary);
    redraw();
    // A run that ended may have evicted older ones: the list is read again (once for several).
    if (summary.status !== 'running') {
      clearTimeout(timer);
      timer = setTimeout(reload, RELOAD_MS);
    }
  }, reload);
}
