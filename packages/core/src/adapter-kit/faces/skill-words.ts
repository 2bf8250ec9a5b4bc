import {
  ITEM_PLACEHOLDER,
  REDACTED_VALUE,
  parseGuidance,
  shownValues,
  type AskSource,
  type Condition,
  type DataSource,
  type JsonValue,
  type ShownValues,
  type StepModel,
  type WorkflowModel,
} from '../../model';
import { codeSpan } from './skill-markup';

/**
 * A workflow's declaration in plain words, for the LLM that reads its `SKILL.md` (DESIGN §2.10):
 * where a value comes from ("the `city` argument", "the `id` of step `find`'s result"), when a step
 * runs, and a text's `{placeholders}` named. Never mcpflow's notation, never a sensitive value (a
 * sensitive constant, or what a sensitive source is compared with, reads `[redacted]`).
 */
export interface SkillWords {
  /** Where a value comes from. */
  source(source: DataSource): string;
  /** Whether a step's argument is sensitive: marked in `sensitiveArgs`, or from a sensitive argument or answer. */
  sensitive(step: Pick<StepModel, 'sensitiveArgs'>, name: string, source: DataSource): boolean;
  /** The choices of a question: each fixed one, or where they come from. */
  choices(source: DataSource): string;
  /** When a `when` condition holds. */
  condition(condition: Condition): string;
  /** A text with its `{name}` placeholders written as `<…>` names; `{item…}` reads the loop's element when `inLoop`. */
  template(text: string, inLoop: boolean, context?: readonly string[]): string;
}

/**
 * The words of one workflow; `questionNumber` numbers its questions as the SKILL.md lists them,
 * `shown` says which of its values may show (by default, what the workflow alone tells).
 *
 * @example
 * ```ts
 * skillWords(model, () => 1).source(field('progress', 'room')); // 'the `room` of step `progress`\'s result'
 * ```
 */
export function skillWords(model: WorkflowModel, questionNumber: (ask: AskSource) => number, shown = shownValues(model)): SkillWords {
  const stepOf = new Map(model.steps.flatMap((step) => (step.binding === undefined ? [] : [[step.binding, step.name] as const])));
  const result = (binding: string, part?: string) => {
    const step = stepOf.get(binding);
    if (part === undefined) return step === undefined ? `the result named ${codeSpan(binding)}` : `the result of step ${codeSpan(step)}`;
    return step === undefined ? `the ${part} of the result named ${codeSpan(binding)}` : `the ${part} of step ${codeSpan(step)}'s result`;
  };
  const source = (from: DataSource): string => {
    switch (from.kind) {
      case 'promptArg':
        return `the ${codeSpan(from.name)} argument`;
      case 'fromStep':
        return result(from.binding);
      case 'field':
        return result(from.binding, codeSpan(from.path));
      case 'constant':
        return `the fixed value ${valueWords(shown.value(from.value))}`;
      case 'item':
        return from.path === undefined
          ? 'the current element of the loop'
          : `the ${codeSpan(from.path)} of the current element of the loop`;
      case 'askUser':
        return `the user's answer to question ${questionNumber(from)}`;
      case 'askModel':
        return `the model's answer to question ${questionNumber(from)}`;
    }
  };
  return {
    source,
    choices: (from) =>
      from.kind === 'constant' && Array.isArray(from.value) && !shown.sensitive(from)
        ? from.value.map((choice) => codeSpan(JSON.stringify(choice))).join(', ')
        : source(from),
    sensitive: (step, name, from) => step.sensitiveArgs.includes(name) || (from.kind !== 'constant' && shown.sensitive(from)),
    condition: (condition) => conditionWords(condition, false, source, shown),
    template: (text, inLoop, context = []) => templateWords(text, inLoop, context),
  };
}

/** A value as shown: in a code span, or `[redacted]` bare. */
function valueWords(shown: string): string {
  return shown === REDACTED_VALUE ? REDACTED_VALUE : codeSpan(shown);
}

function conditionWords(condition: Condition, negated: boolean, source: (from: DataSource) => string, shown: ShownValues): string {
  if (condition.kind === 'not') return conditionWords(condition.condition, !negated, source, shown);
  const subject = source(condition.source);
  const hidden = shown.sensitive(condition.source);
  const compared = (value: JsonValue) => valueWords(hidden ? REDACTED_VALUE : shown.value(value));
  switch (condition.kind) {
    case 'present':
      return `${subject} ${negated ? 'is missing or empty' : 'is given and not empty'}`;
    case 'equals':
      return `${subject} ${negated ? 'is not' : 'is'} ${compared(condition.value)}`;
    case 'oneOf':
      return `${subject} ${negated ? 'is none of' : 'is one of'} ${hidden ? REDACTED_VALUE : condition.values.map(compared).join(', ')}`;
  }
}

function templateWords(text: string, inLoop: boolean, context: readonly string[]): string {
  return parseGuidance(text)
    .map((part) => {
      if (part.kind === 'text') return part.text;
      if (inLoop && part.name === ITEM_PLACEHOLDER)
        return part.path === undefined ? '<the current element>' : `<the ${part.path} of the current element>`;
      return context.includes(part.name) ? `<the context value ${part.name}>` : `<the ${part.name} argument>`;
    })
    .join('');
}
