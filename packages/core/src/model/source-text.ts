import type { Condition } from './condition';
import type { DataSource, JsonValue } from './data-source';
import { ALL_VALUES_SHOWN, REDACTED_VALUE, type ShownValues } from './shown-values';

/**
 * A data source written back as the call that declares it, for people to read (a skipped step's
 * reason, a graph's edge): the same text whichever reader (decorators or the compiler) built the model.
 * `shown` decides which constants show (a text served to clients passes `shownValues(workflow)`,
 * so a sensitive constant reads `constant([redacted])`).
 *
 * @example
 * ```ts
 * dataSourceText(field('progress', 'game_id')); // "field('progress', 'game_id')"
 * ```
 */
export function dataSourceText(source: DataSource, shown: ShownValues = ALL_VALUES_SHOWN): string {
  switch (source.kind) {
    case 'promptArg':
      return `promptArg('${source.name}')`;
    case 'fromStep':
      return `fromStep('${source.binding}')`;
    case 'field':
      return `field('${source.binding}', '${source.path}')`;
    case 'constant':
      return `constant(${shown.value(source.value)})`;
    case 'item':
      return source.path === undefined ? 'item()' : `item('${source.path}')`;
    case 'askUser':
    case 'askModel':
      // Named, not quoted: a question is long, and the rules refuse one in a condition or a forEach.
      return `${source.kind}(…)`;
  }
}

/**
 * A `when` condition written back as the calls that declare it; with `shown`, a value compared with
 * a sensitive source, or holding a sensitive constant's text, reads `[redacted]`.
 *
 * @example
 * ```ts
 * conditionText(not(oneOf(item('labels.0'), ['bug', 'feature']))); // `not(oneOf(item('labels.0'), ["bug","feature"]))`
 * ```
 */
export function conditionText(condition: Condition, shown: ShownValues = ALL_VALUES_SHOWN): string {
  switch (condition.kind) {
    case 'not':
      return `not(${conditionText(condition.condition, shown)})`;
    case 'present':
      return `present(${dataSourceText(condition.source, shown)})`;
    case 'equals':
      return `equals(${dataSourceText(condition.source, shown)}, ${comparedText(condition.source, condition.value, shown)})`;
    case 'oneOf':
      return `oneOf(${dataSourceText(condition.source, shown)}, ${comparedText(condition.source, [...condition.values], shown)})`;
  }
}

/** What a condition compares its source with, as shown: nothing of it when the source is sensitive. */
function comparedText(source: DataSource, value: JsonValue, shown: ShownValues): string {
  return shown.sensitive(source) ? REDACTED_VALUE : shown.value(value);
}
