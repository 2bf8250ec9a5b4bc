import { mermaidGraph, stepActionUri, stepTool, type StepModel, type WorkflowFaces, type WorkflowModel } from '../../model';
import type { WorkflowClass } from '../../model/read-workflow';
import { codeSpan, fencedBlock, oneLine, yamlString } from './skill-markup';
import { argumentShapes, outputShapes } from './skill-shapes';
import { questionText, workflowQuestions } from './skill-questions';
import { skillShownValues } from './skill-secrets';
import { skillWords, type SkillWords } from './skill-words';

/**
 * The `SKILL.md` of a workflow served as a skill (SEP-2640), written for an LLM (DESIGN §2.10):
 * front matter (`name`, `description`); what it does and when to run it rather than its steps'
 * tools; its arguments; its steps in plain words (where each input comes from, when a step runs,
 * its guidance with placeholders named); its questions (text, choices, expected answer); a Mermaid
 * graph of the steps (the one `mcpflow graph` prints); how to run it and what the tool face returns.
 * The workflow's own texts are data: one-line fields flattened, block texts fenced (see
 * `skill-markup.ts`), so none opens a heading or a section. No sensitive value shows. The text
 * depends on the class alone — no time, no locale, no order of `use()` — so every process serving
 * the class serves the same bytes, and the same digest.
 *
 * @example
 * ```ts
 * skillMarkdown(model, workflowFaces(model), GetHint); // '---\nname: get-hint\ndescription: "Get a contextual hint"\n---\n…'
 * ```
 */
export function skillMarkdown(model: WorkflowModel, faces: WorkflowFaces, target?: WorkflowClass): string {
  const questions = workflowQuestions(model);
  const shown = skillShownValues(model, target);
  const words = skillWords(model, (ask) => questions.findIndex((question) => question.ask === ask) + 1, shown);
  const shapes = outputShapes(model, target);
  const sections = [
    `---\nname: ${faces.skill!.name}\ndescription: ${yamlString(model.description ?? '')}\n---`,
    `# ${oneLine(model.title ?? model.name)}\n\n${whatItDoes(model)}`,
    `## When to use it\n\n${whenToUse(model, faces, questions.length > 0)}`,
    `## Arguments\n\n${argumentsText(model, argumentShapes(target))}`,
    `## Steps\n\n${stepsIntro(model, faces)}\n\n${model.steps.map((step, index) => stepText(step, index, words, shapes)).join('\n\n')}`,
    ...(questions.length
      ? [`## Questions\n\n${questions.map((question, index) => questionText(question, index + 1, words)).join('\n\n')}`]
      : []),
    `## Graph\n\nThe steps in the order they run (parallel steps side by side; the edges say when a step runs, and over what it loops):\n\n\`\`\`mermaid\n${mermaidGraph(model, { shown })}\n\`\`\``,
    `## How to run it\n\n${howToRun(model, faces, shapes)}`,
  ];
  return `${sections.join('\n\n')}\n`;
}

function whatItDoes(model: WorkflowModel): string {
  const count = model.steps.length === 1 ? 'one step' : `${model.steps.length} steps`;
  const described = model.description ? `\n\nIts description, as its author wrote it:\n\n${fencedBlock(model.description)}` : '';
  return `A workflow of ${count} (the workflow ${codeSpan(model.name)}).${described}`;
}

function whenToUse(model: WorkflowModel, faces: WorkflowFaces, asks: boolean): string {
  const runs = faces.prompt || faces.tool;
  const lines = [
    runs
      ? "Run the workflow as a whole (see How to run it) rather than calling its steps' tools yourself: the server runs the steps in order, passes each result to the steps that need it, asks where a step needs an answer, and keeps sensitive values out of the conversation. Where it cannot go on, it hands the remaining steps to you, naming the tools to call and the arguments still needed."
      : 'This server does not run it for you: follow the steps below yourself, in order, calling each tool and reading each resource.',
    ...(asks
      ? [
          "If the user declines or cancels a question, the run ends there: do not answer the question yourself, and do not do the remaining steps on the user's behalf (by calling their tools or otherwise). Tell the user what was not done.",
        ]
      : []),
    ...(model.resources.length
      ? [
          runs
            ? `The server shows ${resourceList(model.resources)} in the conversation before the first step.`
            : `Read ${resourceList(model.resources)} before the first step.`,
        ]
      : []),
    ...(model.instructions ?? []).map(
      (text, index) => `${index === 0 ? 'Its instructions, as its author wrote them:\n\n' : ''}${fencedBlock(text)}`,
    ),
  ];
  return lines.join('\n\n');
}

function argumentsText(model: WorkflowModel, types: ReadonlyMap<string, string>): string {
  if (!model.arguments.length) return 'It takes no arguments.';
  return model.arguments
    .map((argument) => {
      const notes = [
        argument.required === false ? 'optional' : 'required',
        ...(types.has(argument.name) ? [types.get(argument.name)!] : []),
        ...(argument.sensitive ? ['sensitive: the server never shows its value'] : []),
      ];
      return `- ${codeSpan(argument.name)} (${notes.join('; ')})${argument.description ? `: ${oneLine(argument.description)}` : ''}`;
    })
    .join('\n');
}

function stepsIntro(model: WorkflowModel, faces: WorkflowFaces): string {
  if (!model.steps.length) return 'It has no steps.';
  return faces.prompt || faces.tool ? 'The server runs these steps itself, in this order.' : 'Do these steps yourself, in this order.';
}

function stepText(step: StepModel, index: number, words: SkillWords, shapes: ReadonlyMap<string, string>): string {
  const tool = stepTool(step);
  const uri = stepActionUri(step);
  const inputs = [
    ...step.args.map(
      ({ name, source }) => `- ${codeSpan(name)}${words.sensitive(step, name, source) ? ' (sensitive)' : ''}: ${words.source(source)}`,
    ),
    ...step.fills.map(({ variable, source }) => `- ${codeSpan(`{${variable}}`)}: ${words.source(source)}`),
  ];
  const action =
    tool !== undefined ? `Calls the tool ${codeSpan(tool)}` : uri !== undefined ? `Reads the resource ${codeSpan(uri)}` : 'Does nothing';
  const lines = [`### Step ${index + 1}: ${codeSpan(step.name)}`, inputs.length ? `${action} with:\n\n${inputs.join('\n')}` : `${action}.`];
  const flow = [
    ...(step.parallel ? ['It runs at the same time as the parallel steps next to it.'] : []),
    ...(step.forEach === undefined ? [] : [`It runs once for each element of ${words.source(step.forEach)}.`]),
    ...(step.when === undefined ? [] : [`It runs only when ${words.condition(step.when)}; otherwise it is skipped.`]),
    ...(step.optional ? ['It is optional: if it fails, the workflow goes on.'] : []),
    ...(step.resources.length ? [`It shows ${resourceList(step.resources)} in the conversation.`] : []),
    ...(step.binding === undefined ? [] : [`Its result: ${shapes.get(step.name)}.`]),
  ];
  if (flow.length) lines.push(flow.join(' '));
  if (step.guidance !== undefined)
    lines.push(
      'What the server says at this step (`<…>` marks what it fills in):',
      fencedBlock(words.template(step.guidance, step.forEach !== undefined)),
    );
  return lines.join('\n\n');
}

function resourceList(uris: readonly string[]): string {
  return `${uris.length === 1 ? 'the resource' : 'the resources'} ${uris.map(codeSpan).join(', ')}`;
}

function howToRun(model: WorkflowModel, faces: WorkflowFaces, shapes: ReadonlyMap<string, string>): string {
  const ways = [
    ...(faces.prompt
      ? [
          `- As a prompt: \`prompts/get\` with name ${codeSpan(model.name)} and the arguments above. The result is the conversation of the run.`,
        ]
      : []),
    ...(faces.tool
      ? [`- As a tool: \`tools/call\` with name ${codeSpan(faces.tool.name)} and the arguments above. The result is described below.`]
      : []),
  ];
  if (!ways.length) return 'This server does not run it as a prompt or a tool: follow the steps above yourself.';
  return faces.tool ? `${ways.join('\n')}\n\n${toolResult(model, shapes)}` : ways.join('\n');
}

function toolResult(model: WorkflowModel, shapes: ReadonlyMap<string, string>): string {
  const outputs = model.steps.flatMap((step) =>
    step.binding === undefined
      ? []
      : [`  - ${codeSpan(step.binding)}: the result of step ${codeSpan(step.name)}, ${shapes.get(step.name)}`],
  );
  return [
    "The tool's result: its text is the conversation of the run, and its `structuredContent` is `{ status, outputs }`:",
    '',
    '- `status`: `completed` (every step ran), `handoff` (the server could not go on: the text names the steps left to you), `failed` (a step failed; the result has `isError: true`), or `cancelled` (the user declined or cancelled a question: do not go on).',
    `- \`outputs\`: each completed step's result by name (sensitive values shown as \`[redacted]\`)${outputs.length ? ':' : '; this workflow names none.'}`,
    ...outputs,
  ].join('\n');
}
