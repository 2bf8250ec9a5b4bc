import { z } from 'zod';
import type { DataSource, StepModel, WorkflowModel } from '@mcpflow/core/model';
import { validateWorkflow } from '@mcpflow/core/rules';
import { askModel, askUser, constant, field, fromStep, promptArg } from '@mcpflow/decorators';

function step(name: string, args: Record<string, DataSource>, binding?: string): StepModel {
  return {
    name,
    property: name,
    action: { kind: 'tool', tool: `${name}_tool` },
    extraActions: [],
    args: Object.entries(args).map(([arg, source]) => ({ name: arg, source })),
    resources: [],
    binding,
    extraBindings: [],
    fills: [],
    sensitiveArgs: [],
    parallel: false,
    optional: false,
  };
}

function workflow(...steps: StepModel[]): WorkflowModel {
  return {
    name: 'add_project_task',
    className: 'AddProjectTask',
    arguments: [
      { name: 'project', required: true },
      { name: 'title', required: true },
    ],
    instructions: [],
    resources: [],
    steps: [step('list', { project: promptArg('project') }, 'pages'), ...steps],
    strayDecorators: [],
  };
}

const errorsOf = (...steps: StepModel[]) =>
  validateWorkflow(workflow(...steps)).map((error) => ({ code: error.code, message: error.message, target: error.target }));

describe('rules for askUser and askModel, on plain models', () => {
  test.each<[string, DataSource]>([
    [
      'a question with choices from an earlier step',
      askUser('Which page of {project} gets {title}?', { choices: field('pages', 'names'), schema: z.string() }),
    ],
    ['constant choices and a form schema', askUser('Priority?', { choices: constant(['low', 'high']), attempts: 1, sensitive: true })],
    [
      'a model question reading context and arguments',
      askModel('Pick the page for {title} among {pages}', { context: { pages: fromStep('pages') }, maxTokens: 50 }),
    ],
    ['literal braces', askUser('Answer as {{json}}')],
  ])('accepts %s', (_label, source) => {
    expect(errorsOf(step('add', { page: source }))).toEqual([]);
  });

  test.each<[string, DataSource, number, string, object]>([
    [
      'choices from an unknown binding',
      askUser('Which page?', { choices: field('page', 'names') }),
      91001,
      "reads binding 'page', but no step binds it. Bindings available here: 'pages'. Did you mean 'pages'?",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'binding', within: 'choices' },
    ],
    [
      'context from an undeclared argument',
      askModel('Pick a page', { context: { who: promptArg('owner') } }),
      91004,
      "'owner'",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'name', within: 'context.who' },
    ],
    [
      'a malformed choices path',
      askUser('Which page?', { choices: field('pages', 'names..0') }),
      91019,
      "field path 'names..0' has an empty segment.",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'path', within: 'choices' },
    ],
    [
      'an ask inside an ask',
      askModel('Pick a page', { context: { hint: askUser('Any hint?') } }),
      91040,
      "askModel() takes its 'context.hint' from another ask",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'value', within: 'context.hint' },
    ],
    [
      'an unknown placeholder in a user question',
      askUser('Which page of {projet}?'),
      91041,
      "the askUser() text holds {projet}, which names none of the prompt arguments: 'project', 'title'. Did you mean 'project'?",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'message' },
    ],
    [
      'a model placeholder that is neither an argument nor a context entry',
      askModel('Choose among {page_list}', { context: { pages: fromStep('pages') } }),
      91041,
      "names none of the prompt arguments and context entries: 'project', 'title', 'pages'.",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'message' },
    ],
    [
      'an empty question',
      askUser('  '),
      91042,
      'askUser() has an empty message.',
      { kind: 'argSource', step: 'add', arg: 'page', part: 'message' },
    ],
    [
      'zero attempts',
      askUser('Which page?', { attempts: 0 }),
      91042,
      "askUser() option 'attempts' is 0; it must be a whole number of at least 1.",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'options', within: 'attempts' },
    ],
    [
      'fractional maxTokens',
      askModel('Summarize', { maxTokens: 2.5 }),
      91042,
      "askModel() option 'maxTokens' is 2.5",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'options', within: 'maxTokens' },
    ],
    [
      'constant choices that are not a list',
      askUser('Which page?', { choices: constant('Roadmap') }),
      91042,
      "option 'choices' is a constant that is not a list.",
      { kind: 'argSource', step: 'add', arg: 'page', part: 'options', within: 'choices' },
    ],
  ])('refuses %s', (_label, source, code, fragment, target) => {
    const errors = errorsOf(step('add', { page: source }));
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe(code);
    expect(errors[0].message).toContain(fragment);
    expect(errors[0].message).toMatch(/^Workflow 'add_project_task', step 'add': .* Fix: /);
    expect(errors[0].target).toEqual(target);
  });

  test('choices read a binding only once it is bound: an ask cannot read its own step', () => {
    const errors = errorsOf(step('add', { page: askUser('Which?', { choices: fromStep('added') }) }, 'added'));
    expect(errors.map((error) => error.code)).toEqual([91002]);
    expect(errors[0].message).toContain("reads binding 'added', which this same step binds: a step cannot use its own output.");
  });

  test('an ask in a when condition or as a forEach source is refused: asks fill arguments and URI variables', () => {
    const conditional: StepModel = { ...step('add', {}), when: { kind: 'equals', source: askUser('Add it?'), value: 'yes' } };
    const looping: StepModel = { ...step('each', {}), forEach: askModel('List the pages') };
    const errors = errorsOf(conditional, looping);
    expect(errors.map((error) => [error.code, error.target])).toEqual([
      [91042, { kind: 'conditionSource', step: 'add', index: 0, part: 'value' }],
      [91042, { kind: 'forEachSource', step: 'each', part: 'value' }],
    ]);
    expect(errors[0].message).toContain('askUser() is used in a when condition; an ask can only fill a step argument or a URI variable.');
  });

  test('an ask filling a URI variable is checked like an argument', () => {
    const resourceStep: StepModel = {
      ...step('read', {}),
      action: { kind: 'resource', uri: 'pages://{id}' },
      fills: [{ variable: 'id', source: askUser('Which id?', { choices: field('pagez', 'ids') }) }],
    };
    const errors = errorsOf(resourceStep);
    expect(errors.map((error) => [error.code, error.target])).toEqual([
      [91001, { kind: 'templateSource', step: 'read', variable: 'id', part: 'binding', within: 'choices' }],
    ]);
  });
});
