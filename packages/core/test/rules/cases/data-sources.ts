import {
  BindingUsedBeforeBoundError,
  ErrorCodes,
  InvalidFieldPathError,
  StepNameUsedAsBindingError,
  UndeclaredPromptArgumentError,
  UnknownBindingError,
  validateWorkflow,
} from '@mcpflow/core/rules';
import { args, constant, field, fromStep, promptArg, resourceStep, toolStep, workflow, type RuleCase } from '../plain-model';

const list = toolStep('list', { binding: 'pages' });

/** What a data source reads: a declared prompt argument, or a binding of an earlier step, by a well-formed path. */
export const dataSourceCases: RuleCase[] = [
  {
    label: 'arguments, URI variables and conditions that read what exists',
    errors: () =>
      validateWorkflow(
        workflow([
          list,
          toolStep('add', {
            args: args({
              project: promptArg('project'),
              page: field('pages', 'items.0.name'),
              all: fromStep('pages'),
              note: constant('x'),
            }),
            when: { kind: 'present', source: fromStep('pages') },
          }),
          resourceStep('read', 'docs://{page}', { fills: [{ variable: 'page', source: field('pages', 'first') }] }),
        ]),
      ),
    expected: [],
  },
  {
    label: 'a binding no step binds, with the closest one suggested',
    errors: () => validateWorkflow(workflow([list, toolStep('add', { args: args({ page: fromStep('page') }) })])),
    expected: [
      {
        type: UnknownBindingError,
        code: ErrorCodes.UnknownBinding,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'binding' },
        message:
          "Workflow 'report', step 'add': reads binding 'page', but no step binds it. Bindings available here: 'pages'. Did you mean 'pages'? " +
          "Fix: add @Bind('page') to an earlier step, or read one of the available bindings.",
      },
    ],
  },
  {
    label: 'a condition reading a binding no step binds, with nothing close',
    errors: () => validateWorkflow(workflow([list, toolStep('add', { when: { kind: 'present', source: fromStep('missing') } })])),
    expected: [
      {
        type: UnknownBindingError,
        code: ErrorCodes.UnknownBinding,
        target: { kind: 'conditionSource', step: 'add', index: 0, part: 'binding' },
        message:
          "Workflow 'report', step 'add': reads binding 'missing', but no step binds it. Bindings available here: 'pages'. " +
          "Fix: add @Bind('missing') to an earlier step, or read one of the available bindings.",
      },
    ],
  },
  {
    label: 'a binding a later step binds, and a binding of the step itself',
    errors: () =>
      validateWorkflow(
        workflow([toolStep('add', { binding: 'added', args: args({ page: fromStep('pages'), again: fromStep('added') }) }), list]),
      ),
    expected: [
      {
        type: BindingUsedBeforeBoundError,
        code: ErrorCodes.BindingUsedBeforeBound,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'binding' },
        message:
          "Workflow 'report', step 'add': reads binding 'pages' before it is bound: step 'list' binds it and runs later. " +
          "Fix: declare step 'list' above step 'add' (steps run in declaration order).",
      },
      {
        type: BindingUsedBeforeBoundError,
        code: ErrorCodes.BindingUsedBeforeBound,
        target: { kind: 'argSource', step: 'add', arg: 'again', part: 'binding' },
        message:
          "Workflow 'report', step 'add': reads binding 'added', which this same step binds: a step cannot use its own output. " +
          'Fix: read a binding of an earlier step instead.',
      },
    ],
  },
  {
    label: 'a step name where a binding belongs, of a bound and of an unbound step',
    errors: () =>
      validateWorkflow(
        workflow([list, toolStep('count'), toolStep('add', { args: args({ page: fromStep('list'), total: fromStep('count') }) })]),
      ),
    expected: [
      {
        type: StepNameUsedAsBindingError,
        code: ErrorCodes.StepNameUsedAsBinding,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'binding' },
        message:
          "Workflow 'report', step 'add': reads 'list', which is a step name, not a binding. Step 'list' is bound as 'pages'. Did you mean 'pages'? " +
          "Fix: read the binding name 'pages' instead of the step name.",
      },
      {
        type: StepNameUsedAsBindingError,
        code: ErrorCodes.StepNameUsedAsBinding,
        target: { kind: 'argSource', step: 'add', arg: 'total', part: 'binding' },
        message:
          "Workflow 'report', step 'add': reads 'count', which is a step name, not a binding. Step 'count' has no @Bind. " +
          "Fix: add @Bind('count') to step 'count', or read an existing binding.",
      },
    ],
  },
  {
    label: 'a prompt argument the workflow does not declare, filling a URI variable',
    errors: () =>
      validateWorkflow(workflow([resourceStep('read', 'docs://{name}', { fills: [{ variable: 'name', source: promptArg('projet') }] })])),
    expected: [
      {
        type: UndeclaredPromptArgumentError,
        code: ErrorCodes.UndeclaredPromptArgument,
        target: { kind: 'templateSource', step: 'read', variable: 'name', part: 'name' },
        message:
          "Workflow 'report', step 'read': reads prompt argument 'projet', which the workflow does not declare. Declared arguments: 'project'. Did you mean 'project'? " +
          "Fix: declare 'projet' in @Workflow({ arguments: { projet: z.string() } }), or read a declared argument.",
      },
    ],
  },
  {
    label: 'a field path with an empty segment',
    errors: () => validateWorkflow(workflow([list, toolStep('add', { args: args({ page: field('pages', 'names..0') }) })])),
    expected: [
      {
        type: InvalidFieldPathError,
        code: ErrorCodes.InvalidFieldPath,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'path' },
        message:
          "Workflow 'report', step 'add': field path 'names..0' has an empty segment. " +
          "Fix: write the path as names and array indexes joined by single dots, like 'items.0.name'.",
      },
    ],
  },
];
