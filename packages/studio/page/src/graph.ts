// A workflow's graph: the Mermaid text `mcpflow graph` prints, drawn as SVG by the bundled mermaid,
// each step's node coloured by its status in the run the graph follows (`data-status`), and a click
// on a node showing that step's input and output as the server's trace shows them.
import mermaid from 'mermaid';
import { h, show } from './dom';
import type { StepIO, StepState } from './types';

mermaid.initialize({
  startOnLoad: false,
  securityLevel: 'strict',
  theme: 'neutral',
  // Labels as HTML inside the SVG (mermaid's default): SVG text would show the entities mermaid
  // makes of `mcpflow graph`'s `#quot;` escapes as written, split across lines.
});

let renders = 0;

/** The run a workflow's graph follows: its steps' statuses, then their inputs and outputs. */
interface Followed {
  readonly runId: string;
  readonly steps: Map<string, string>;
  io?: StepIO[];
}

const followed = new Map<string, Followed>();
/** The graph shown of each workflow (one at a time on the page). */
const figures = new Map<string, HTMLElement>();

/** The words a status reads as in a node's name and the step panel. */
const WORDS: Readonly<Record<string, string>> = {
  pending: 'pending',
  running: 'running',
  waiting: 'waiting',
  completed: 'completed',
  skipped: 'skipped',
  failed: 'failed',
  cancelled: 'cancelled',
  handoff: 'handoff',
};

/** The nodes of a drawn graph, by step name: mermaid names node `s<index>` `flowchart-s<index>-<n>`. */
function nodesOf(figure: HTMLElement, steps: readonly string[]): Map<string, SVGGElement> {
  const nodes = new Map<string, SVGGElement>();
  for (const node of figure.querySelectorAll<SVGGElement>('g.node')) {
    const index = /flowchart-s(\d+)-\d+$/.exec(node.id)?.[1];
    const step = index === undefined ? undefined : steps[Number(index)];
    if (step !== undefined) nodes.set(step, node);
  }
  return nodes;
}

/** Colours each node by its step's status in the followed run (`pending` when none). */
function paint(workflow: string): void {
  const figure = figures.get(workflow);
  if (!figure) return;
  const run = followed.get(workflow);
  for (const node of figure.querySelectorAll<SVGGElement>('g.node[data-step]')) {
    const step = node.dataset.step!;
    const status = run?.steps.get(step) ?? 'pending';
    node.dataset.status = status;
    node.setAttribute('aria-label', `${step}: ${WORDS[status] ?? status}`);
  }
  const open = figure.querySelector<HTMLElement>('.step-panel[data-step]');
  if (open) showStep(figure, workflow, open.dataset.step!);
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

/** The panel of one step: its status in the followed run, its input and output, why it did not complete. */
function showStep(figure: HTMLElement, workflow: string, step: string): void {
  const panel = figure.querySelector<HTMLElement>('.step-panel')!;
  const run = followed.get(workflow);
  const status = run?.steps.get(step) ?? 'pending';
  const io = run?.io?.find((each) => each.step === step);
  panel.dataset.step = step;
  const body: (Node | false | undefined)[] = [h('h3', {}, step, ' ', h('span', { class: `badge ${status}` }, WORDS[status] ?? status))];
  if (!run) body.push(h('p', { class: 'hint' }, 'Run the workflow to see what this step receives and returns.'));
  else if (!run.io) body.push(h('p', { class: 'hint' }, 'Its input and output show when the run ends.'));
  else if (!io) body.push(h('p', { class: 'hint' }, 'This run shows no input or output for this step.'));
  else {
    body.push(
      io.input !== undefined && h('h4', {}, 'Input'),
      io.input !== undefined && h('pre', { 'aria-label': `Input of ${step}` }, json(io.input)),
      io.output !== undefined && h('h4', {}, 'Output'),
      io.output !== undefined && h('pre', { 'aria-label': `Output of ${step}` }, json(io.output)),
      io.reason !== undefined && h('p', { class: 'reason', 'aria-label': `Reason of ${step}` }, io.reason),
    );
  }
  show(panel, ...body);
}

/**
 * Mermaid's SVG without its `<style>` element and `style` attributes: app.css draws the graph (light
 * and dark, each node by its status) and no rule of mermaid's, scoped to the SVG's id, outweighs it.
 * Parsed in an inert template, so nothing of it applies before it is cleaned.
 */
function withoutInlineStyles(svg: string): DocumentFragment {
  const template = document.createElement('template');
  template.innerHTML = svg;
  for (const style of template.content.querySelectorAll('style')) style.remove();
  for (const styled of template.content.querySelectorAll('[style]')) styled.removeAttribute('style');
  return document.importNode(template.content, true);
}

/** A figure holding the SVG of `source`, or the error mermaid gave with the source it could not draw. */
export async function drawGraph(workflow: string, source: string, steps: readonly string[]): Promise<HTMLElement> {
  const figure = h('figure', { class: 'graph', 'aria-label': `Graph of ${workflow}` });
  try {
    renders += 1;
    const { svg } = await mermaid.render(`mcpflow-graph-${renders}`, source);
    figure.append(withoutInlineStyles(svg));
    const drawing = figure.querySelector('svg');
    // A group of step buttons, not an image: each node is named by its step and status, and opens the step.
    drawing?.setAttribute('role', 'group');
    drawing?.setAttribute('aria-label', `Graph of ${workflow}`);
    const panel = h('section', { class: 'step-panel', 'aria-live': 'polite', 'aria-label': 'Step' });
    figure.append(panel);
    for (const [step, node] of nodesOf(figure, steps)) {
      node.dataset.step = step;
      node.setAttribute('role', 'button');
      node.setAttribute('tabindex', '0');
      const open = (): void => {
        panel.setAttribute('aria-label', `Step ${step}`);
        showStep(figure, workflow, step);
      };
      node.addEventListener('click', open);
      node.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          open();
        }
      });
    }
    figures.set(workflow, figure);
    paint(workflow);
  } catch (error) {
    figure.append(h('p', { class: 'error' }, `The graph could not be drawn: ${(error as Error).message}`), h('pre', {}, source));
  }
  return figure;
}

/** The graph of `workflow` follows run `runId` from now on: every step `pending` until the server tells of it. */
export function followRun(workflow: string, runId: string): void {
  followed.set(workflow, { runId, steps: new Map() });
  paint(workflow);
}

/** A step of run `runId` changed status; shown when the graph follows that run. */
export function stepChanged(workflow: string, runId: string, state: StepState): void {
  const run = followed.get(workflow);
  if (run?.runId !== runId) return;
  run.steps.set(state.step, state.status);
  paint(workflow);
}

/** Run `runId` ended: every step's final status, and their inputs and outputs. */
export function runEnded(workflow: string, runId: string, steps: readonly StepState[], io: StepIO[]): void {
  const run = followed.get(workflow);
  if (run?.runId !== runId) return;
  for (const state of steps) run.steps.set(state.step, state.status);
  run.io = io;
  paint(workflow);
}
