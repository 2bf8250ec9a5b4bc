import type {
  DataSource,
  EqualsCondition,
  JsonValue,
  NotCondition,
  OneOfCondition,
  PresentCondition,
  Condition,
} from '@mcpflow/core/model';

/**
 * True when the source's value equals `value` (JSON equality: objects and arrays compare by content).
 * @example `@Step({ tool: 'escalate', when: equals(field('ticket', 'priority'), 'high') })`
 */
export function equals(source: DataSource, value: JsonValue): EqualsCondition {
  return { kind: 'equals', source, value };
}

/**
 * True when the source's value equals one of `values`.
 * @example `@Step({ tool: 'translate', when: oneOf(promptArg('language'), ['fr', 'de']) })`
 */
export function oneOf(source: DataSource, values: JsonValue[]): OneOfCondition {
  return { kind: 'oneOf', source, values };
}

/**
 * True when the source has a value that is not null, an empty string or an empty array (a missing
 * optional prompt argument or field is not present).
 * @example `@Step({ resource: 'docs://labelling-guide', forEach: fromStep('issues'), when: not(present(item('labels'))) })`
 */
export function present(source: DataSource): PresentCondition {
  return { kind: 'present', source };
}

/**
 * True when `condition` is false.
 * @example `when: not(equals(promptArg('mode'), 'dry-run'))`
 */
export function not(condition: Condition): NotCondition {
  return { kind: 'not', condition };
}
