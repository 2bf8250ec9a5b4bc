import type { PlannedStep } from '../../plan/plan-workflow';
import type { Redactor } from '../../redaction/redactor';
import { formatCount } from '../../text/bounded-text';
import { ownRecord } from '../../../util/own-record';

/** A string argument at least this long is shown once, in the intent, and referred to after. */
const LARGE_VALUE_CHARACTERS = 1_024;

/**
 * A step's arguments as a call announcement or a handoff shows them: a long string that is a prompt
 * argument, already written whole in the intent, becomes a reference to it instead of a copy, so a
 * 2 MB `code` argument is in the trace once rather than once per step that uses it.
 *
 * @example
 * ```ts
 * shownArguments(step, { code: bigSource }); // { code: "[the prompt argument 'code' above, 200,084 characters]" }
 * ```
 */
export function shownArguments(step: PlannedStep, args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  let shown: Record<string, unknown> | undefined;
  for (const argument of step.args) {
    const value = Object.hasOwn(args, argument.name) ? args[argument.name] : undefined;
    if (argument.source.kind !== 'promptArg' || argument.sensitive || typeof value !== 'string' || value.length < LARGE_VALUE_CHARACTERS)
      continue;
    shown ??= copy(args);
    shown[argument.name] = `[the prompt argument '${argument.source.name}' above, ${formatCount(value.length)} characters]`;
  }
  return shown ?? (args as Record<string, unknown>);
}

function copy(args: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const result = ownRecord<unknown>();
  for (const key of Object.keys(args)) result[key] = args[key];
  return result;
}

/**
 * Arguments as the trace shows them, as JSON: `JSON.stringify(args)`, with each value the client
 * supplied marked as the client's text when the run marks it (so redaction never marks a guess).
 *
 * @example
 * ```ts
 * argumentsJson(step, { pin: '[redacted]', note: '4321' }, redactor); // '{"pin":"[redacted]","note":<marked>"4321"<marked>}'
 * ```
 */
export function argumentsJson(
  step: PlannedStep,
  args: Readonly<Record<string, unknown>>,
  redactor: Pick<Redactor, 'marking' | 'client'>,
): string {
  if (!redactor.marking) return JSON.stringify(args);
  let json = '';
  for (const name of Object.keys(args)) {
    const value = JSON.stringify(args[name]);
    if (value === undefined) continue;
    const fromClient = step.args.some((argument) => argument.name === name && argument.fromClient);
    json += `${json ? ',' : ''}${JSON.stringify(name)}:${fromClient ? redactor.client(value) : value}`;
  }
  return `{${json}}`;
}
