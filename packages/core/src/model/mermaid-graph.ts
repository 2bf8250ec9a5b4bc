import { parallelGroups } from './parallel-groups';
import { shownValues, type ShownValues, type ShownWorkflow } from './shown-values';
import { conditionText, dataSourceText } from './source-text';
import type { StepModel, WorkflowModel } from './workflow-model';

/**
 * What a graph shows of a step: its name and its flow options; and what tells which of their
 * values are sensitive (its arguments and `sensitiveArgs`).
 */
export type GraphedStep = Pick<StepModel, 'name' | 'parallel' | 'when' | 'forEach'> & ShownWorkflow['steps'][number];

/** What a graph shows of a workflow: its name and its steps, in declaration order; its arguments tell which are sensitive. */
export interface GraphedWorkflow extends ShownWorkflow {
  readonly name: WorkflowModel['name'];
  readonly steps: readonly GraphedStep[];
}

/**
 * A workflow's steps as a Mermaid `flowchart TD`: a start node named after the workflow, then one
 * node per step labelled with the step's name, in the order they run. Adjacent `parallel` steps
 * sit side by side (the step before forks to each, each joins into the step after); a step's
 * `forEach` and `when` label the edges into it. The text depends only on the model (no locale, no
 * time), so every reader of one class prints the same graph: `mcpflow graph`, a generated SKILL.md.
 * It never holds a sensitive value: a sensitive constant, and a value a `when` compares a sensitive
 * source with, read `[redacted]` (see `shownValues`; a reader that knows more of what is sensitive
 * passes its own as `options.shown`).
 *
 * @example
 * ```ts
 * mermaidGraph(readWorkflowModel(GetHint));
 * // flowchart TD
 * //   start(["get_hint"])
 * //   s0["progress"]
 * //   s1["walkthrough"]
 * //   start --> s0
 * //   s0 --> s1
 * ```
 */
export function mermaidGraph(workflow: GraphedWorkflow, options: { readonly shown?: ShownValues } = {}): string {
  // `options` may be an index (`workflows.map(mermaidGraph)`): anything but an object with `shown` means the default.
  const shown = (typeof options === 'object' ? options.shown : undefined) ?? shownValues(workflow);
  const lines = ['flowchart TD', `  start(["${mermaidText(workflow.name)}"])`];
  const nodes = workflow.steps.map((step, index) => ({ id: `s${index}`, parallel: step.parallel, label: edgeLabel(step, shown) }));
  workflow.steps.forEach((step, index) => lines.push(`  ${nodes[index].id}["${mermaidText(step.name)}"]`));
  let previous = ['start'];
  for (const group of parallelGroups(nodes)) {
    for (const node of group) {
      const arrow = node.label === undefined ? '-->' : `-->|"${mermaidText(node.label)}"|`;
      for (const from of previous) lines.push(`  ${from} ${arrow} ${node.id}`);
    }
    previous = group.map((node) => node.id);
  }
  return lines.join('\n');
}

/** What an edge into a step says: how often it runs (`forEach`), then whether it runs (`when`). */
function edgeLabel(step: GraphedStep, shown: ShownValues): string | undefined {
  const parts = [
    ...(step.forEach === undefined ? [] : [`forEach ${dataSourceText(step.forEach, shown)}`]),
    ...(step.when === undefined ? [] : [`when ${conditionText(step.when, shown)}`]),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

const ENTITIES: Readonly<Record<string, string>> = {
  '#': '#35;',
  '"': '#quot;',
  '<': '#lt;',
  '>': '#gt;',
  '`': '#96;',
  '%': '#37;',
  '&': '#38;',
};

/**
 * Text safe inside a quoted Mermaid label: the characters Mermaid would read as syntax become entity
 * codes — quotes and brackets, `%` (so `%%` cannot open a comment or an `%%{init}%%` directive), and
 * `<`, `>`, `&` (so a label is never HTML: no `<img>` or link in it fetches anything).
 */
function mermaidText(text: string): string {
  return text.replace(/\r\n|[\r\n\u2028\u2029]/g, ' ').replace(/[#"<>`%&]/g, (char) => ENTITIES[char]);
}
