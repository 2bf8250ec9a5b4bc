import { isDeepStrictEqual } from 'node:util';
import { conditionSources, conditionText, type Condition, type ShownValues } from '../../model';
import { planResolver, type ExecutionScope } from './resolve-source';

/** A step's `when`, planned once: whether it reads the `forEach` element, and its test. */
export interface PlannedCondition {
  /** True when the condition reads `item()`: it is then tested per element, not once per step. */
  readonly readsItem: boolean;
  /** The condition as written, for the reason a step or element was skipped (no value compared with a sensitive source). */
  readonly text: string;
  holds(scope: ExecutionScope): boolean;
}

/**
 * Plans a condition; `shown` (the workflow's `shownValues`) keeps what it compares a sensitive
 * source with out of its text. A source with no value (an optional step that failed, a missing optional
 * argument) is not present and equals nothing, so `not(present(...))` can branch on it.
 *
 * @example
 * ```ts
 * planCondition(not(present(item('labels')))).holds({ args: {}, bindings: {}, iteration: { index: 0, item: { labels: [] } } }); // true
 * ```
 */
export function planCondition(condition: Condition, shown?: ShownValues): PlannedCondition {
  return {
    readsItem: conditionSources(condition).some((source) => source.kind === 'item'),
    text: conditionText(condition, shown),
    holds: planTest(condition),
  };
}

function planTest(condition: Condition): (scope: ExecutionScope) => boolean {
  if (condition.kind === 'not') {
    const inner = planTest(condition.condition);
    return (scope) => !inner(scope);
  }
  const resolve = planResolver(condition.source);
  switch (condition.kind) {
    case 'present':
      return (scope) => {
        const resolved = resolve(scope);
        return resolved.ok && isPresent(resolved.value);
      };
    case 'equals': {
      const { value } = condition;
      return (scope) => {
        const resolved = resolve(scope);
        return resolved.ok && isDeepStrictEqual(resolved.value, value);
      };
    }
    case 'oneOf': {
      const { values } = condition;
      return (scope) => {
        const resolved = resolve(scope);
        return resolved.ok && values.some((candidate) => isDeepStrictEqual(resolved.value, candidate));
      };
    }
  }
}

function isPresent(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
}
