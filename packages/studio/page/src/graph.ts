// A workflow's graph: the Mermaid text `mcpflow graph` prints, drawn as SVG by the bundled mermaid.
import mermaid from 'mermaid';
import { h } from './dom';

mermaid.initialize({
  startOnLoad: false,
  securityLevel: 'strict',
  // Labels as HTML inside the SVG (mermaid's default): SVG text would show the entities mermaid
  // makes of `mcpflow graph`'s `#quot;` escapes as written, split across lines.
});

let renders = 0;

/** A figure holding the SVG of `source`, or the error mermaid gave with the source it could not draw. */
export async function drawGraph(workflow: string, source: string): Promise<HTMLElement> {
  const figure = h('figure', { class: 'graph', 'aria-label': `Graph of ${workflow}` });
  try {
    renders += 1;
    const { svg } = await mermaid.render(`mcpflow-graph-${renders}`, source);
    figure.innerHTML = svg;
    figure.querySelector('svg')?.setAttribute('role', 'img');
    figure.querySelector('svg')?.setAttribute('aria-label', `Graph of ${workflow}`);
  } catch (error) {
    figure.append(h('p', { class: 'error' }, `The graph could not be drawn: ${(error as Error).message}`), h('pre', {}, source));
  }
  return figure;
}

/**
 * Marks the node of the step a task of `workflow` runs or waits at (`data-status="running"`; node
 * `s<stepIndex>` of `mcpflow graph`'s text) in that workflow's graph, if shown, and unmarks the one
 * marked before; `undefined` (the task ended) only unmarks.
 */
export function markRunningStep(workflow: string, stepIndex: number | undefined): void {
  const figure = document.querySelector(`figure.graph[aria-label="Graph of ${CSS.escape(workflow)}"]`);
  for (const node of figure?.querySelectorAll('g.node[data-status="running"]') ?? []) node.removeAttribute('data-status');
  // Mermaid names a node `<svg id>-flowchart-<node id>-<counter>`.
  const svg = figure?.querySelector('svg');
  if (svg && stepIndex !== undefined)
    svg.querySelector(`g.node[id^="${svg.id}-flowchart-s${stepIndex}-"]`)?.setAttribute('data-status', 'running');
}
