import { ErrorCodes, InvalidAskOptionError, NestedAskError, UnknownAskPlaceholderError, validateWorkflow } from '@mcpflow/core/rules';
import { args, askModel, askUser, constant, field, fromStep, toolStep, workflow, type RuleCase } from '../plain-model';

const list = toolStep('list', { binding: 'pages' });
const asking = (source: ReturnType<typeof askUser>) =>
  validateWorkflow(workflow([list, toolStep('add', { args: args({ page: source }) })]));

/** askUser and askModel: their texts, options and the sources their questions read (more in ask-rules.test.ts). */
export const askCases: RuleCase[] = [
  {
    label: 'a question with choices from a binding, and a model question with context',
    errors: () =>
      validateWorkflow(
        workflow([
          list,
          toolStep('add', {
            args: args({
              page: askUser('Which page of {project}?', { choices: field('pages', 'names'), attempts: 2 }),
              title: askModel('Name a page for {project} among {pages}', { context: { pages: fromStep('pages') }, maxTokens: 20 }),
            }),
          }),
        ]),
      ),
    expected: [],
  },
  {
    label: 'an ask inside an ask',
    errors: () => asking(askModel('Pick a page', { context: { hint: askUser('Any hint?') } })),
    expected: [
      {
        type: NestedAskError,
        code: ErrorCodes.NestedAsk,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'value', within: 'context.hint' },
        message:
          "Workflow 'report', step 'add': askModel() takes its 'context.hint' from another ask; the values a question is built from must already be known when it is asked. " +
          'Fix: ask in an earlier step, @Bind its answer, and read it here with fromStep() or field().',
      },
    ],
  },
  {
    label: 'placeholders that name nothing the question can read',
    errors: () => [
      ...asking(askUser('Which page of {projet}?')),
      ...asking(askModel('Choose among {page_list}', { context: { pages: fromStep('pages') } })),
    ],
    expected: [
      {
        type: UnknownAskPlaceholderError,
        code: ErrorCodes.UnknownAskPlaceholder,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'message' },
        message:
          "Workflow 'report', step 'add': the askUser() text holds {projet}, which names none of the prompt arguments: 'project'. Did you mean 'project'? " +
          "Fix: use a declared argument's name, declare 'projet', or write {{projet}} for literal braces.",
      },
      {
        type: UnknownAskPlaceholderError,
        code: ErrorCodes.UnknownAskPlaceholder,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'message' },
        message:
          "Workflow 'report', step 'add': the askModel() text holds {page_list}, which names none of the prompt arguments and context entries: 'project', 'pages'. " +
          "Fix: use a declared argument or add 'page_list' to the context option (context: { page_list: fromStep('…') }); write {{page_list}} for literal braces.",
      },
    ],
  },
  {
    label: 'an empty question, zero attempts, choices that are no list, an ask in a when condition',
    errors: () => [
      ...asking(askUser('  ')),
      ...asking(askUser('Which page?', { attempts: 0 })),
      ...asking(askUser('Which page?', { choices: constant('Roadmap') })),
      ...validateWorkflow(workflow([toolStep('add', { when: { kind: 'equals', source: askUser('Add it?'), value: 'yes' } })])),
    ],
    expected: [
      {
        type: InvalidAskOptionError,
        code: ErrorCodes.InvalidAskOption,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'message' },
        message: "Workflow 'report', step 'add': askUser() has an empty message. Fix: write the question the user is to answer.",
      },
      {
        type: InvalidAskOptionError,
        code: ErrorCodes.InvalidAskOption,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'options', within: 'attempts' },
        message:
          "Workflow 'report', step 'add': askUser() option 'attempts' is 0; it must be a whole number of at least 1. " +
          'Fix: set attempts to 1 or more, or leave it out for the default.',
      },
      {
        type: InvalidAskOptionError,
        code: ErrorCodes.InvalidAskOption,
        target: { kind: 'argSource', step: 'add', arg: 'page', part: 'options', within: 'choices' },
        message:
          "Workflow 'report', step 'add': askUser() option 'choices' is a constant that is not a list. " +
          "Fix: give the choices as a list, like constant(['draft', 'final']), or read one with field().",
      },
      {
        type: InvalidAskOptionError,
        code: ErrorCodes.InvalidAskOption,
        target: { kind: 'conditionSource', step: 'add', index: 0, part: 'value' },
        message:
          "Workflow 'report', step 'add': askUser() is used in a when condition; an ask can only fill a step argument or a URI variable. " +
          'Fix: ask in an earlier step, @Bind its answer, and read it here with fromStep() or field().',
      },
    ],
  },
];
