import { answerJsonSchema } from '../../engine';
import { isAskSource, type AskSource, type StepModel, type WorkflowModel } from '../../model';
import { codeSpan, fencedBlock } from './skill-markup';
import { typeWords } from './skill-types';
import type { SkillWords } from './skill-words';

/** A question a workflow asks: which step's input it fills, and the ask. */
export interface SkillQuestion {
  readonly step: StepModel;
  /** The tool argument (`quantity`) or URI variable (`id`) the answer fills. */
  readonly name: string;
  /** The same, as the SKILL.md writes it: `` `quantity` ``, `` `{id}` ``. */
  readonly input: string;
  readonly ask: AskSource;
}

/**
 * The questions of a workflow, in the order its steps ask them (each step's arguments, then its
 * URI variables): the SKILL.md numbers them from 1 in this order.
 *
 * @example
 * ```ts
 * workflowQuestions(model).map((question) => question.input); // ['quantity']
 * ```
 */
export function workflowQuestions(model: WorkflowModel): SkillQuestion[] {
  return model.steps.flatMap((step) => [
    ...step.args.flatMap(({ name, source }) => (isAskSource(source) ? [{ step, name, input: codeSpan(name), ask: source }] : [])),
    ...step.fills.flatMap(({ variable, source }) =>
      isAskSource(source) ? [{ step, name: variable, input: codeSpan(`{${variable}}`), ask: source }] : [],
    ),
  ]);
}

/**
 * One question as an LLM reads it: who is asked, for what, the question's text (its placeholders
 * named), the choices and the answer expected.
 *
 * @example
 * ```ts
 * questionText(workflowQuestions(model)[0], 1, words); // '### Question 1: …'
 * ```
 */
export function questionText(question: SkillQuestion, number: number, words: SkillWords): string {
  const { step, input, ask } = question;
  const inLoop = step.forEach !== undefined;
  const target = `${input} of step ${codeSpan(step.name)}`;
  const lines = [`### Question ${number}: ${target}`];
  if (ask.kind === 'askUser') {
    lines.push(`The server asks the user (a form, through the client) for ${target}:`, fencedBlock(words.template(ask.message, inLoop)));
    lines.push(
      ask.choices === undefined
        ? `Expected answer: ${typeWords(answerJsonSchema(ask.schema))}.`
        : `The user picks one of the choices: ${words.choices(ask.choices)}.`,
    );
  } else {
    const context = Object.keys(ask.context ?? {});
    lines.push(`The server asks your model (a sampling request) for ${target}:`, fencedBlock(words.template(ask.prompt, inLoop, context)));
    if (context.length)
      lines.push(
        `After the request, it shows the model ${context.map((name) => `${codeSpan(name)}: ${words.source(ask.context![name])}`).join('; ')}.`,
      );
    lines.push(`Expected answer: ${typeWords(answerJsonSchema(ask.schema))}.`);
  }
  if (ask.sensitive === true || step.sensitiveArgs.includes(question.name))
    lines.push('The answer is sensitive: the server never shows it in the conversation.');
  return lines.join('\n\n');
}
