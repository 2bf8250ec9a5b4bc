import {
  conditionText,
  dataSourceText,
  mermaidGraph,
  shownValues,
  type ShownValues,
  stepActionUri,
  stepTool,
  type StepModel,
  type WorkflowFaces,
  type WorkflowModel,
} from '../../model';

/**
 * The `SKILL.md` of a workflow served as a skill (SEP-2640), generated from its model: front
 * matter (`name`, `description`), what it does, its arguments, its steps with their guidance, a
 * Mermaid graph of the steps (the one `mcpflow graph` prints), and how to run it (its prompt and
 * tool names). The text depends on the model alone — no time, no locale, no order of `use()` — so
 * every process serving the class serves the same bytes, and the same digest.
 *
 * @example
 * ```ts
 * skillMarkdown(model, workflowFaces(model)); // '---\nname: get-hint\ndescription: "Get a contextual hint"\n---\n…'
 * ```
 */
export function skillMarkdown(model: WorkflowModel, faces: WorkflowFaces): string {
  const sections = [
    // A JSON string is a YAML double-quoted scalar: any description reads back as itself.
    `---\nname: ${faces.skill!.name}\ndescription: ${JSON.stringify(model.description ?? '')}\n---`,
    `# ${model.title ?? model.name}\n\n${model.description ?? ''}`,
    `## What it does\n\n${whatItDoes(model, faces)}`,
    `## Arguments\n\n${argumentsText(model)}`,
    `## Steps\n\n${model.steps.map((step, index) => stepText(step, index, shownValues(model))).join('\n')}`,
    `## Graph\n\n\`\`\`mermaid\n${mermaidGraph(model)}\n\`\`\``,
    `## How to run it\n\n${howToRun(model, faces)}`,
  ];
  return `${sections.join('\n\n')}\n`;
}

function whatItDoes(model: WorkflowModel, faces: WorkflowFaces): string {
  const count = model.steps.length === 1 ? 'one step' : `${model.steps.length} steps`;
  const served =
    faces.prompt || faces.tool
      ? `The server runs its ${count} itself, in order: it calls its own tools and reads its own resources, asks you (or your model) where a step needs an answer, and returns the conversation of the run. Where it cannot go on, it hands the remaining steps to you, naming the tools to call and the arguments still needed.`
      : `It is a workflow of ${count}: follow them in order, calling each tool and reading each resource yourself.`;
  const instructions = (model.instructions ?? []).map((text) => `> ${text.replace(/\r?\n/g, '\n> ')}`);
  return [served, ...(instructions.length ? [`Its instructions:\n\n${instructions.join('\n>\n')}`] : [])].join('\n\n');
}

function argumentsText(model: WorkflowModel): string {
  if (!model.arguments.length) return 'It takes no arguments.';
  return model.arguments
    .map((argument) => {
      const notes = [
        argument.required === false ? 'optional' : 'required',
        ...(argument.sensitive ? ['sensitive: never shown in the trace'] : []),
      ];
      return `- \`${argument.name}\` (${notes.join('; ')})${argument.description ? ` — ${oneLine(argument.description)}` : ''}`;
    })
    .join('\n');
}

function stepText(step: StepModel, index: number, shown: ShownValues): string {
  const tool = stepTool(step);
  const uri = stepActionUri(step);
  const action = tool !== undefined ? `calls tool \`${tool}\`` : uri !== undefined ? `reads resource \`${uri}\`` : 'does nothing';
  const inputs = [
    ...step.args.map(({ name, source }) => `\`${name}\` from ${dataSourceText(source, shown)}`),
    ...step.fills.map(({ variable, source }) => `\`{${variable}}\` from ${dataSourceText(source, shown)}`),
  ];
  const lines = [`${index + 1}. **${step.name}** — ${action}${inputs.length ? ` with ${inputs.join(', ')}` : ''}.`];
  const flow = [
    ...(step.parallel ? ['runs in parallel with the adjacent parallel steps'] : []),
    ...(step.forEach === undefined ? [] : [`runs once for each element of ${dataSourceText(step.forEach, shown)}`]),
    ...(step.when === undefined ? [] : [`runs only when ${conditionText(step.when, shown)}`]),
    ...(step.optional ? ['optional: the workflow goes on if it fails'] : []),
    ...(step.binding === undefined ? [] : [`its value is bound as \`${step.binding}\``]),
  ];
  if (flow.length) lines.push(`   ${capitalized(flow.join('; '))}.`);
  if (step.guidance !== undefined) lines.push(`   Guidance: ${oneLine(step.guidance)}`);
  return lines.join('\n');
}

function howToRun(model: WorkflowModel, faces: WorkflowFaces): string {
  const ways = [
    ...(faces.prompt
      ? [`- As a prompt: \`prompts/get\` with name \`${model.name}\` and the arguments above; the result is the conversation of the run.`]
      : []),
    ...(faces.tool
      ? [
          `- As a tool: \`tools/call\` with name \`${faces.tool.name}\` and the arguments above; the result's \`structuredContent\` is \`{ status, outputs }\`, \`outputs\` holding each completed step's value by its binding name.`,
        ]
      : []),
  ];
  return ways.length ? ways.join('\n') : 'This server does not run it as a prompt or a tool: follow the steps above yourself.';
}

function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ');
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
