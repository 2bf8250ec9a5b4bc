// The chosen workflow: its graph, description, an argument form and a Run button per face it has.
import { ApiError, api } from './api';
import { h, show, uniqueId } from './dom';
import { drawGraph } from './graph';
import type { Face, Workflow } from './types';

const FACE_BUTTONS: { face: Face; label: string }[] = [
  { face: 'prompt', label: 'Run' },
  { face: 'tool', label: 'Run as tool' },
  { face: 'task', label: 'Run as task' },
];

function argumentForm(workflow: Workflow, onRun: (face: Face, args: Record<string, string>) => Promise<void>): HTMLFormElement {
  const error = h('p', { class: 'error', role: 'alert' });
  const inputs = workflow.arguments.map((argument) => {
    const id = uniqueId('arg');
    const input = h('input', { id, name: argument.name, type: 'text', required: argument.required });
    const row = h(
      'div',
      { class: 'field' },
      h('label', { for: id }, argument.name),
      input,
      argument.description && h('small', {}, argument.description),
    );
    return { argument, input, row };
  });
  const form = h('form', { 'aria-label': `Arguments of ${workflow.name}` }, ...inputs.map(({ row }) => row));
  let face: Face = 'prompt';
  const buttons = FACE_BUTTONS.filter(({ face }) => workflow.faces[face]).map((button) =>
    h('button', { type: 'submit', onclick: () => (face = button.face) }, button.label),
  );
  form.append(h('div', { class: 'buttons' }, ...buttons), error);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const args: Record<string, string> = {};
    // An empty optional argument is left out rather than sent as ''.
    // Defined, not assigned: an argument named `__proto__` is sent as one (assigning would set the prototype).
    for (const { argument, input } of inputs)
      if (input.value !== '' || argument.required)
        Object.defineProperty(args, argument.name, { value: input.value, enumerable: true, writable: true, configurable: true });
    error.textContent = '';
    onRun(face, args).catch((failure: unknown) => {
      error.textContent = failure instanceof ApiError ? failure.message : `The run could not start: ${(failure as Error).message}`;
    });
  });
  return form;
}

/** Shows `workflow` in `element`; Run starts it and hands the run id to `onStarted`. */
export async function showWorkflow(element: Element, workflow: Workflow, onStarted: (runId: string, face: Face) => void): Promise<void> {
  const heading = h('h2', {}, workflow.title ?? workflow.name);
  const form = argumentForm(workflow, async (face, args) => {
    const { runId } = await api.startRun(workflow.name, face, args);
    onStarted(runId, face);
  });
  const placeholder = h('p', {}, 'Drawing the graph…');
  show(element, heading, workflow.description && h('p', { class: 'description' }, workflow.description), placeholder, form);
  const graph = await drawGraph(
    workflow.name,
    workflow.mermaid,
    workflow.steps.map((step) => step.name),
  );
  // Another workflow may have been chosen while mermaid drew this one.
  if (placeholder.isConnected) placeholder.replaceWith(graph);
}
