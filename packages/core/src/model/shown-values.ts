import { isAskSource, type DataSource, type JsonValue } from './data-source';
import type { ArgumentModel, StepModel } from './workflow-model';

/** What a sensitive value reads as in a text generated from a workflow's declaration (a SKILL.md, a graph). */
export const REDACTED_VALUE = '[redacted]';

/** What deciding which values of a workflow's declaration are sensitive needs: its arguments and steps. */
export interface ShownWorkflow {
  readonly arguments?: readonly Pick<ArgumentModel, 'name' | 'sensitive'>[];
  readonly steps: readonly Partial<Pick<StepModel, 'args' | 'sensitiveArgs' | 'forEach'>>[];
}

/**
 * Which values written in a workflow's declaration may be shown to whoever reads a text generated
 * from it (a SKILL.md, a Mermaid graph): a sensitive constant — one that fills a sensitive
 * argument — never, nor any constant or `when` comparison value that holds one of its strings,
 * nor a value a `when` compares a sensitive source with (a sensitive prompt argument, a sensitive
 * answer, the part of a step's result a sensitive argument reads). Each shows as `[redacted]`.
 */
export interface ShownValues {
  /** A constant or comparison value as JSON, or `[redacted]`. */
  value(value: JsonValue): string;
  /** True when `source`'s value is sensitive, so what it is compared with must not show. */
  sensitive(source: DataSource): boolean;
}

/** Every value shows: for texts generated from a declaration nobody else reads. */
export const ALL_VALUES_SHOWN: ShownValues = { value: (value) => JSON.stringify(value), sensitive: () => false };

/**
 * The values of a workflow that a generated text may show (see `ShownValues`). `calledSensitive`
 * names, per step, the arguments that are sensitive where the step sends them (the sensitive
 * arguments of a workflow the step calls as a tool), besides its own `sensitiveArgs`.
 *
 * @example
 * ```ts
 * shownValues(readWorkflowModel(Deploy)).value('4321'); // '[redacted]' when constant('4321') fills a sensitive argument
 * ```
 */
export function shownValues(workflow: ShownWorkflow, calledSensitive: (stepIndex: number) => readonly string[] = () => []): ShownValues {
  const sensitiveArguments = new Set((workflow.arguments ?? []).filter((argument) => argument.sensitive).map((argument) => argument.name));
  const secrets: string[] = [];
  const sensitiveReads: { binding: string; path: string[] }[] = [];
  workflow.steps.forEach((step, index) => {
    const marked = new Set([...(step.sensitiveArgs ?? []), ...calledSensitive(index)]);
    for (const { name, source } of step.args ?? []) {
      const sensitive =
        marked.has(name) ||
        (source.kind === 'promptArg' && sensitiveArguments.has(source.name)) ||
        (isAskSource(source) && source.sensitive === true);
      if (!sensitive) continue;
      if (source.kind === 'constant') collectTexts(source.value, secrets);
      if (source.kind === 'fromStep') sensitiveReads.push({ binding: source.binding, path: [] });
      if (source.kind === 'field') sensitiveReads.push({ binding: source.binding, path: source.path.split('.') });
      // A sensitive argument from the element of a loop over a constant: every element is a secret.
      if (source.kind === 'item' && step.forEach?.kind === 'constant') collectTexts(step.forEach.value, secrets);
    }
  });
  const holdsSecret = (value: JsonValue): boolean => {
    const texts: string[] = [];
    collectTexts(value, texts);
    return texts.some((text) => secrets.some((secret) => text.includes(secret)));
  };
  return {
    value: (value) => (holdsSecret(value) ? REDACTED_VALUE : JSON.stringify(value)),
    sensitive(source) {
      switch (source.kind) {
        case 'promptArg':
          return sensitiveArguments.has(source.name);
        case 'askUser':
        case 'askModel':
          return source.sensitive === true;
        case 'constant':
          return holdsSecret(source.value);
        case 'fromStep':
        case 'field': {
          const path = source.kind === 'field' ? source.path.split('.') : [];
          return sensitiveReads.some((read) => read.binding === source.binding && overlaps(read.path, path));
        }
        case 'item':
          return false;
      }
    },
  };
}

/** The strings and numbers inside a value (non-empty): the texts that would give a secret away. */
function collectTexts(value: JsonValue, into: string[]): void {
  if (typeof value === 'string') {
    if (value) into.push(value);
  } else if (typeof value === 'number') into.push(String(value));
  else if (Array.isArray(value)) for (const element of value) collectTexts(element, into);
  else if (value !== null && typeof value === 'object') for (const element of Object.values(value)) collectTexts(element, into);
}

/** Whether one path is a prefix of the other: what one reads holds, or is held by, what the other reads. */
function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
