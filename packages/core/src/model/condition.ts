import type { DataSource, JsonValue } from './data-source';

/** True when the source's value equals `value` (deep JSON equality). */
export interface EqualsCondition {
  readonly kind: 'equals';
  readonly source: DataSource;
  readonly value: JsonValue;
}

/** True when the source's value equals one of `values`. */
export interface OneOfCondition {
  readonly kind: 'oneOf';
  readonly source: DataSource;
  readonly values: readonly JsonValue[];
}

/** True when the source has a value that is not null, an empty string or an empty array. */
export interface PresentCondition {
  readonly kind: 'present';
  readonly source: DataSource;
}

/** True when `condition` is false. */
export interface NotCondition {
  readonly kind: 'not';
  readonly condition: Condition;
}

/** A step's `when`: a small, literal condition over data sources, so the compiler can read it. */
export type Condition = EqualsCondition | OneOfCondition | PresentCondition | NotCondition;

/**
 * The data sources a condition reads, depth first. A rule or a diagnostic names a source by its
 * index in this list, so the runtime and the compiler agree on which one is meant.
 */
export function conditionSources(condition: Condition): DataSource[] {
  // A `when` from untyped code may be anything: what is not a condition reads nothing (a rule reports it).
  const known = condition as Condition | undefined;
  if (known?.kind === 'not') return conditionSources(known.condition);
  return known?.kind === 'equals' || known?.kind === 'oneOf' || known?.kind === 'present' ? [known.source] : [];
}
