// Rerun a finished run (DESIGN §2.15): Rerun fills a form with the run's arguments (edit them or
// not), and each step's row in the timeline gets Rerun from here, which keeps the earlier steps'
// outputs as the server recorded them. Both go through POST /api/runs/:runId/rerun, which calls the
// server's mcpflow/rerun (a server in dev mode); the new run says which run it reruns.
import { ApiError, api } from './api';
import { h, uniqueId } from './dom';
import type { Run } from './types';

/** Starts the rerun of the finished run `run`; `started` hears of the new run. */
type Rerunning = (body: { fromStep?: string; arguments?: Record<string, string> }) => Promise<void>;

/** The section id of a run, for the link from its reruns. */
export function runAnchor(runId: string): string {
  return `run-${runId}`;
}

/** Under a rerun's heading: which run it reruns (a link to it), and from which step. */
export function rerunOrigin(run: { rerunOf?: string; rerunFrom?: string }): HTMLElement | undefined {
  if (run.rerunOf === undefined) return undefined;
  return h(
    'p',
    { class: 'rerun-of' },
    'Rerun of ',
    h('a', { href: `#${runAnchor(run.rerunOf)}` }, `run ${run.rerunOf}`),
    run.rerunFrom === undefined ? ' (every step)' : ` from step ${run.rerunFrom}`,
  );
}

/**
 * The rerun controls of a finished run, added to its outcome: a **Rerun** button that opens a form
 * filled with the run's arguments, and **Rerun from here** on each step's timeline row (found by
 * its `data-step`; iteration rows are skipped). A run its server did not record (not in dev mode)
 * gets a note saying how to turn dev mode on instead.
 */
export function addRerunControls(outcome: Element, run: Run, started: (runId: string) => void): void {
  if (run.serverRun === undefined) {
    outcome.append(
      h(
        'p',
        { class: 'rerun-unavailable' },
        'Rerun needs the server in dev mode: mcpflow dev --command starts it so; over --url, serve it with the WorkflowServer option dev: true.',
      ),
    );
    return;
  }
  const error = h('p', { class: 'error', role: 'alert' });
  const rerunning: Rerunning = async (body) => {
    error.textContent = '';
    try {
      const { runId } = await api.rerun(run.runId, body);
      started(runId);
    } catch (failure) {
      error.textContent = failure instanceof ApiError ? failure.message : `The rerun could not start: ${(failure as Error).message}`;
    }
  };
  const form = argumentsForm(run, rerunning);
  const open = h('button', { type: 'button', 'aria-expanded': 'false' }, 'Rerun');
  open.addEventListener('click', () => {
    form.hidden = !form.hidden;
    open.setAttribute('aria-expanded', String(!form.hidden));
    if (!form.hidden) form.querySelector('input')?.focus();
  });
  outcome.append(h('div', { class: 'rerun' }, open, form, error));
  for (const row of outcome.querySelectorAll<HTMLElement>('[data-step]')) {
    const step = row.dataset.step;
    // A forEach iteration's row (`each #2`) reruns nothing of its own: its step's row does.
    const name = row.querySelector('[role="cell"]')?.textContent ?? '';
    if (step === undefined || row.dataset.iteration !== undefined || / #\d+/.test(name)) continue;
    row.append(
      h(
        'span',
        { role: 'cell', class: 'rerun-from' },
        h(
          'button',
          { type: 'button', 'aria-label': `Rerun from ${step}`, onclick: () => void rerunning({ fromStep: step }) },
          'Rerun from here',
        ),
      ),
    );
  }
}

/** The form Rerun opens: one input per argument of the run, filled with its value; unchanged values rerun with the same arguments. */
function argumentsForm(run: Run, rerunning: Rerunning): HTMLFormElement {
  const given = Object.entries(run.arguments ?? {}).map(([name, value]) => [
    name,
    typeof value === 'string' ? value : JSON.stringify(value),
  ]);
  const inputs = given.map(([name, value]) => {
    const id = uniqueId('rerun-arg');
    return { name, value, input: h('input', { id, name, type: 'text', value }), label: h('label', { for: id }, name) };
  });
  const form = h(
    'form',
    { 'aria-label': `Rerun arguments of ${run.workflow}`, hidden: true },
    ...inputs.map(({ input, label }) => h('div', { class: 'field' }, label, input)),
    h('div', { class: 'buttons' }, h('button', { type: 'submit' }, 'Start rerun')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const edited = inputs.some(({ input, value }) => input.value !== value);
    void rerunning(edited ? { arguments: Object.fromEntries(inputs.map(({ name, input }) => [name, input.value])) } : {});
  });
  return form;
}
