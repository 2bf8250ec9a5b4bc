import { z } from 'zod';
import { defineResource, defineTool } from '@mcpflow/decorators';
import { STEP_ACTIONS, readStepActions, stepActionUri, stepTool, type StepModel, type WorkflowModel } from '@mcpflow/core/model';
import { ErrorCodes, validateWorkflow } from '@mcpflow/core/rules';
import { STEP_KINDS } from '../src/engine/steps/step-kinds';

const getPage = defineTool('get_page', { inputSchema: { id: z.string() } }, async () => ({ content: [] }));
const page = defineResource('page', 'pages://{id}', {}, async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }));

describe('the action table: how @Step options read into a step action', () => {
  test.each([
    ['a tool by name', { tool: 'get_page' }, { action: { kind: 'tool', tool: 'get_page' }, extraActions: [] }],
    ['a tool by definition', { tool: getPage }, { action: { kind: 'tool', tool: 'get_page' }, extraActions: [] }],
    ['a resource by URI', { resource: 'pages://{id}' }, { action: { kind: 'resource', uri: 'pages://{id}' }, extraActions: [] }],
    ['a resource by definition', { resource: page }, { action: { kind: 'resource', uri: 'pages://{id}' }, extraActions: [] }],
    ['no action', { guidance: 'nothing to do' }, { action: undefined, extraActions: [] }],
    [
      'two actions: the first in table order, the other extra',
      { resource: page, tool: 'get_page' },
      { action: { kind: 'tool', tool: 'get_page' }, extraActions: [{ kind: 'resource', uri: 'pages://{id}' }] },
    ],
  ])('%s', (_name, options, expected) => {
    expect(readStepActions(options)).toEqual(expected);
  });

  test('says which tool a step calls and which URI it reads, for the rules', () => {
    expect([
      stepTool({ action: { kind: 'tool', tool: 'get_page' } }),
      stepActionUri({ action: { kind: 'tool', tool: 'get_page' } }),
    ]).toEqual(['get_page', undefined]);
    expect([
      stepTool({ action: { kind: 'resource', uri: 'pages://{id}' } }),
      stepActionUri({ action: { kind: 'resource', uri: 'x://{id}' } }),
    ]).toEqual([undefined, 'x://{id}']);
  });

  test('the engine runs every kind the model reads, and no other', () => {
    expect(STEP_KINDS.map((kind) => kind.kind)).toEqual(STEP_ACTIONS.map((kind) => kind.kind));
  });
});

describe('the rules take "exactly one action" from the table (plain models)', () => {
  const step = (overrides: Partial<StepModel>): StepModel => ({
    name: 'read',
    property: 'read',
    extraActions: [],
    args: [],
    resources: [],
    extraBindings: [],
    fills: [],
    sensitiveArgs: [],
    parallel: false,
    optional: false,
    ...overrides,
  });
  const workflow = (only: StepModel): WorkflowModel => ({
    name: 'w',
    className: 'W',
    arguments: [],
    instructions: [],
    resources: [],
    steps: [only],
    strayDecorators: [],
  });

  test.each([
    ['neither', step({}), 'names neither a tool nor a resource.'],
    [
      'both',
      step({ action: { kind: 'tool', tool: 'get_page' }, extraActions: [{ kind: 'resource', uri: 'pages://1' }] }),
      'names both a tool and a resource.',
    ],
  ])('%s: 91018', (_name, only, problem) => {
    expect(validateWorkflow(workflow(only)).map((error) => [error.code, error.problem])).toEqual([[ErrorCodes.InvalidStepAction, problem]]);
  });

  test('one action of a known kind passes', () => {
    expect(validateWorkflow(workflow(step({ action: { kind: 'tool', tool: 'get_page' } })))).toEqual([]);
  });
});
