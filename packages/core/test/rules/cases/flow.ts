import {
  ErrorCodes,
  ForEachOverNonArrayError,
  InvalidStepOptionError,
  ItemOutsideForEachError,
  ParallelSiblingBindingError,
  validateWorkflow,
} from '@mcpflow/core/rules';
import type { Condition, StepTransform } from '@mcpflow/core/model';
import { args, constant, field, fromStep, item, promptArg, toolStep, workflow, type RuleCase } from '../plain-model';

const list = toolStep('list', { binding: 'pages' });
const optionError = (step: string, option: string, message: string) => ({
  type: InvalidStepOptionError,
  code: ErrorCodes.InvalidStepOption,
  target: { kind: 'stepOption', step, option } as const,
  message,
});

/** Flow: parallel groups, forEach and item(), when, concurrency, maxItems, transform. */
export const flowCases: RuleCase[] = [
  {
    label: 'a parallel group reading what was bound before it, a forEach over a binding, a step after the group',
    errors: () =>
      validateWorkflow(
        workflow([
          list,
          toolStep('count', { parallel: true, binding: 'count', args: args({ pages: fromStep('pages') }) }),
          toolStep('each', {
            parallel: true,
            binding: 'titles',
            forEach: field('pages', 'items'),
            concurrency: 2,
            maxItems: 10,
            args: args({ name: item('name') }),
            guidance: 'Reading {item.name} of {project}.',
            transform: (value) => value,
          }),
          toolStep('sum', {
            args: args({ count: fromStep('count'), titles: fromStep('titles') }),
            when: { kind: 'oneOf', source: promptArg('project'), values: ['a'] },
          }),
        ]),
      ),
    expected: [],
  },
  {
    label: 'a parallel step reading the binding of a step in its own group',
    errors: () =>
      validateWorkflow(
        workflow([
          toolStep('count', { parallel: true, binding: 'count', args: args({ total: fromStep('sum') }) }),
          toolStep('sum', { parallel: true, binding: 'sum' }),
        ]),
      ),
    expected: [
      {
        type: ParallelSiblingBindingError,
        code: ErrorCodes.ParallelSiblingBinding,
        target: { kind: 'argSource', step: 'count', arg: 'total', part: 'binding' },
        message:
          "Workflow 'report', step 'count': reads binding 'sum' of step 'sum', which runs in the same parallel group, so it has no value yet. " +
          "Fix: remove 'parallel: true' from step 'count' (or from step 'sum') so it runs after 'sum', or read a binding bound before the group.",
      },
    ],
  },
  {
    label: 'item() in a step without forEach, in guidance, and in a forEach source',
    errors: () =>
      validateWorkflow(
        workflow([
          toolStep('add', { args: args({ page: item('name') }), guidance: 'Adding {item.title}.' }),
          toolStep('each', { forEach: item() }),
        ]),
      ),
    expected: [
      {
        type: ItemOutsideForEachError,
        code: ErrorCodes.ItemOutsideForEach,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'value' },
        message:
          "Workflow 'report', step 'add': reads item(), but the step has no forEach, so there is no current element. " +
          "Fix: add forEach: fromStep('<array binding>') to step 'add', or read the value with fromStep()/field() instead.",
      },
      {
        type: ItemOutsideForEachError,
        code: ErrorCodes.ItemOutsideForEach,
        target: { kind: 'forEachSource', step: 'each', part: 'value' },
        message:
          "Workflow 'report', step 'each': reads item() in its own forEach source; the source is read before any element exists. " +
          "Fix: make forEach read an array with fromStep('…') or field('…', '…').",
      },
      {
        type: ItemOutsideForEachError,
        code: ErrorCodes.ItemOutsideForEach,
        target: { kind: 'guidance', step: 'add', start: 8, end: 18 },
        message:
          "Workflow 'report', step 'add': reads item(), but the step has no forEach, so there is no current element. " +
          "Fix: add forEach: fromStep('<array binding>') to step 'add', or read the value with fromStep()/field() instead.",
      },
    ],
  },
  {
    label: 'forEach over a prompt argument and over an object constant',
    errors: () =>
      validateWorkflow(workflow([toolStep('each', { forEach: promptArg('project') }), toolStep('again', { forEach: constant({ a: 1 }) })])),
    expected: [
      {
        type: ForEachOverNonArrayError,
        code: ErrorCodes.ForEachOverNonArray,
        target: { kind: 'forEachSource', step: 'each', part: 'value' },
        message:
          "Workflow 'report', step 'each': runs forEach over prompt argument 'project' (prompt arguments are strings), which is not an array. " +
          "Fix: point forEach at an array: fromStep('<binding>') or field('<binding>', '<path>') whose type is an array, or an array constant().",
      },
      {
        type: ForEachOverNonArrayError,
        code: ErrorCodes.ForEachOverNonArray,
        target: { kind: 'forEachSource', step: 'again', part: 'value' },
        message:
          "Workflow 'report', step 'again': runs forEach over the constant {\"a\":1}, which is not an array. " +
          "Fix: point forEach at an array: fromStep('<binding>') or field('<binding>', '<path>') whose type is an array, or an array constant().",
      },
    ],
  },
  {
    label: 'concurrency without forEach, zero maxItems, a transform that is no function, a when that is never or no condition',
    errors: () =>
      validateWorkflow(
        workflow([
          toolStep('a', { concurrency: 2 }),
          toolStep('b', { forEach: constant([1, 2]), maxItems: 0 }),
          toolStep('c', { transform: 'upper' as unknown as StepTransform }),
          toolStep('d', { when: { kind: 'oneOf', source: promptArg('project'), values: [] } }),
          toolStep('e', { when: { kind: 'maybe' } as unknown as Condition }),
        ]),
      ),
    expected: [
      optionError(
        'a',
        'concurrency',
        "Workflow 'report', step 'a': option 'concurrency' only applies to a forEach step, and this step has no forEach. " +
          "Fix: add forEach: fromStep('<array binding>'), or remove concurrency.",
      ),
      optionError(
        'b',
        'maxItems',
        "Workflow 'report', step 'b': option 'maxItems' is 0; it must be a whole number of at least 1. Fix: set maxItems to 1 or more, or remove it.",
      ),
      optionError(
        'c',
        'transform',
        "Workflow 'report', step 'c': option 'transform' is string; it must be a function from the step's value to the value to bind. " +
          'Fix: write transform: (value) => …, or remove it.',
      ),
      optionError(
        'd',
        'when',
        "Workflow 'report', step 'd': option 'when' uses oneOf() with no values, so it is never true. " +
          'Fix: build the condition with equals(), oneOf(), present() and not() from @mcpflow/decorators.',
      ),
      optionError(
        'e',
        'when',
        "Workflow 'report', step 'e': option 'when' is not a condition. " +
          'Fix: build the condition with equals(), oneOf(), present() and not() from @mcpflow/decorators.',
      ),
    ],
  },
];
