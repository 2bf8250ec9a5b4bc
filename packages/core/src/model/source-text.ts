import type { Condition } from './condition';
import type { DataSource } from './data-source';

/**
 * A data source written back as the call that declares it, for people to read (a skipped step's
 * reason, a graph's edge): the same text whichever reader (decorators or the compiler) built the model.
 *
 * @example
 * ```ts
 * dataSourceText(field('progress', 'game_id')); // "field('progress', 'game_id')"
 * ```
 */
export function dataSourceText(source: DataSource): string {
  switch (source.kind) {
    case 'promptArg':
      return `promptArg('${source.name}')`;
    case 'fromStep':
      return `fromStep('${source.binding}')`;
    case 'field':
      return `field('${source.binding}', '${source.path}')`;
    case 'constant':
      return `constant(${JSON.stringify(source.value)})`;
    case 'item':
      return source.path === undefined ? 'item()' : `item('${source.path}')`;
    case 'askUser':
    case 'askModel':
      // Named, not quoted: a question is long, and the rules refuse one in a condition or a forEach.
      return `${source.kind}(…)`;
  }
}

/**
 * A `when` condition written back as the calls that declare it.
 *
 * @example
 * ```ts
 * conditionText(not(oneOf(item('labels.0'), ['bug', 'feature']))); // `not(oneOf(item('labels.0'), ["bug","feature"]))`
 * ```
 */
export function conditionText(condition: Condition): string {
  switch (condition.kind) {
    case 'not':
      return `not(${conditionText(condition.condition)})`;
    case 'present':
      return `present(${dataSourceText(condition.source)})`;
    case 'equals':
      return `equals(${dataSourceText(condition.source)}, ${JSON.stringify(condition.value)})`;
    case 'oneOf':
      return `oneOf(${dataSourceText(condition.source)}, ${JSON.stringify(condition.values)})`;
  }
}
