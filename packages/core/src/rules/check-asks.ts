import { askInputs, isAskSource, parseGuidance, type AskSource } from '../model';
import { InvalidAskOptionError, NestedAskError, UnknownAskPlaceholderError } from './errors/rule-errors';
import type { WorkflowDefinitionError } from './errors/workflow-definition-error';
import { checkSource, type SourceScope, type SourceTarget } from './check-source';

/**
 * An `askUser`/`askModel` source: its text is not empty and its placeholders name what it can read,
 * its counts are positive integers, constant choices are a list, and the sources it builds the
 * question from are checked like any data source (and are not asks themselves).
 */
export function checkAsk(ask: AskSource, target: SourceTarget, scope: SourceScope): WorkflowDefinitionError[] {
  const { workflow, step } = scope;
  const errors: WorkflowDefinitionError[] = [];
  const invalid = (problem: string, fix: string, option?: string) =>
    errors.push(
      new InvalidAskOptionError(
        workflow.name,
        step.name,
        ask.kind,
        problem,
        fix,
        option === undefined ? target('message') : { ...target('options'), within: option },
      ),
    );

  const text = ask.kind === 'askUser' ? ask.message : ask.prompt;
  if (typeof text !== 'string' || text.trim() === '') {
    invalid(
      `has an empty ${ask.kind === 'askUser' ? 'message' : 'prompt'}.`,
      `write the question the ${ask.kind === 'askUser' ? 'user' : 'model'} is to answer.`,
    );
  } else {
    const known = ask.kind === 'askModel' ? [...scope.declared, ...Object.keys(ask.context ?? {})] : scope.declared;
    for (const part of parseGuidance(text)) {
      if (part.kind === 'placeholder' && !known.includes(part.name)) {
        errors.push(new UnknownAskPlaceholderError(workflow.name, step.name, ask.kind, part.name, known, target('message')));
      }
    }
  }
  const counts: [string, number | undefined][] = [['attempts', ask.attempts]];
  if (ask.kind === 'askModel') counts.push(['maxTokens', ask.maxTokens]);
  for (const [option, value] of counts) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      invalid(
        `option '${option}' is ${JSON.stringify(value)}; it must be a whole number of at least 1.`,
        `set ${option} to 1 or more, or leave it out for the default.`,
        option,
      );
    }
  }
  if (ask.kind === 'askUser' && ask.choices?.kind === 'constant' && !Array.isArray(ask.choices.value)) {
    invalid(
      `option 'choices' is a constant that is not a list.`,
      `give the choices as a list, like constant(['draft', 'final']), or read one with field().`,
      'choices',
    );
  }
  for (const [option, input] of askInputs(ask)) {
    const within: SourceTarget = (part) => ({ ...target(part), within: option });
    if (isAskSource(input)) errors.push(new NestedAskError(workflow.name, step.name, ask.kind, option, within('value')));
    else errors.push(...checkSource(input, within, scope));
  }
  return errors;
}
