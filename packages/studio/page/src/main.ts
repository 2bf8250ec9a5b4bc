// The studio page: the server's workflows, the chosen one's graph and form, its runs and tasks.
import { api } from './api';
import { watchConnection } from './connection';
import { h, show } from './dom';
import { showInspector } from './inspector-view';
import { runView } from './run-view';
import { watchRunsPanel } from './runs-panel';
import { watchTasks } from './tasks-view';
import type { Face, Workflow } from './types';
import { showWorkflow } from './workflow-view';

const byId = (id: string): HTMLElement => document.getElementById(id)!;

/**
 * Takes `?token=` out of the address bar (and so out of the history, bookmarks and screen shares):
 * the page keeps it in its `<meta>` for its API calls, and the server's cookie lets a reload in.
 */
function hideToken(): void {
  const params = new URLSearchParams(location.search);
  if (!params.has('token')) return;
  params.delete('token');
  const search = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${search ? `?${search}` : ''}${location.hash}`);
}

function start(): void {
  hideToken();
  const list = byId('workflow-list');
  const problems = byId('problems');
  const detail = byId('workflow');
  const runs = byId('runs');
  /** Shows run `runId` (at the top of the runs), once; a rerun started from it gets a section of its own, above. */
  const openRun = (run: { runId: string; workflow: string; face: Face }): void => {
    const shown = [...runs.children].find((section) => section.getAttribute('data-run-id') === run.runId);
    const rerun = (rerunId: string): void => openRun({ runId: rerunId, workflow: run.workflow, face: run.face });
    runs.prepend(shown ?? runView(run.runId, run.workflow, run.face, refreshTasks, rerun));
  };
  const refreshTasks = watchTasks(byId('tasks'), (task) => openRun({ runId: task.runId, workflow: task.workflow, face: 'task' }));
  watchRunsPanel(byId('history'), openRun);
  let chosen: string | undefined;

  const choose = (workflow: Workflow): void => {
    chosen = workflow.name;
    for (const button of list.querySelectorAll('button')) button.setAttribute('aria-pressed', String(button.textContent === workflow.name));
    void showWorkflow(detail, workflow, (runId, face) => {
      openRun({ runId, workflow: workflow.name, face });
      if (face === 'task') refreshTasks();
    });
  };

  const listWorkflows = async (): Promise<void> => {
    try {
      const { workflows, problems: broken } = await api.workflows();
      show(
        list,
        ...workflows.map((workflow) =>
          h('li', {}, h('button', { type: 'button', 'aria-pressed': 'false', onclick: () => choose(workflow) }, workflow.name)),
        ),
      );
      show(
        problems,
        broken.length > 0 && h('h3', {}, 'Workflows with problems'),
        broken.length > 0 &&
          h(
            'ul',
            { 'aria-label': 'Workflows with problems' },
            ...broken.map((problem) => h('li', { class: 'error' }, h('strong', {}, problem.name), `: ${problem.error}`)),
          ),
      );
      const again = workflows.find((workflow) => workflow.name === chosen);
      if (again) choose(again);
    } catch (error) {
      show(problems, h('p', { class: 'error', role: 'alert' }, `The workflows could not be listed: ${(error as Error).message}`));
    }
  };

  watchConnection(byId('connection'), () => {
    void listWorkflows();
    void showInspector(byId('inspector'));
  });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
