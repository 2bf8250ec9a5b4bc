import { z } from 'zod';
import { describeInputSchema } from '../src/adapter-kit/tools/tool-schema/describe-input-schema';
import { jsonSchemaAcceptsString } from '../src/adapter-kit/tools/tool-schema/json-schema-accepts-string';
import type { WorkflowModel } from '../src/model';
import { checkToolArguments, type ToolInputSchema } from '../src/rules';

describe('jsonSchemaAcceptsString', () => {
  test.each([
    [{ type: 'string' }, true],
    [{ type: ['number', 'string'] }, true],
    [{ type: 'number' }, false],
    [{ type: 'array', items: { type: 'string' } }, false],
    [{ enum: ['a', 'b'] }, true],
    [{ enum: [1, 2] }, false],
    [{ const: 'x' }, true],
    [{ const: 3 }, false],
    [{ anyOf: [{ type: 'number' }, { type: 'string' }] }, true],
    [{ oneOf: [{ type: 'number' }, { type: 'boolean' }] }, false],
    [{ allOf: [{ type: 'string' }, { enum: [1] }] }, false],
    [{}, true],
    [true, true],
    [false, false],
  ])('%j → %s', (schema, expected) => {
    expect(jsonSchemaAcceptsString(schema)).toBe(expected);
  });
});

describe('checkToolArguments on plain models', () => {
  const schema = describeInputSchema(
    { properties: { city: { type: 'string' }, days: { type: 'integer' } } },
    { city: z.string(), days: z.number().int().min(1) },
  );
  const lookup = { toolInputSchema: (name: string): ToolInputSchema | undefined => (name === 'weather' ? schema : undefined) };
  const workflow = (args: WorkflowModel['steps'][number]['args'], tool = 'weather'): WorkflowModel => ({
    name: 'w',
    className: 'W',
    arguments: [{ name: 'city', required: true }],
    instructions: [],
    resources: [],
    strayDecorators: [],
    steps: [
      {
        name: 's',
        property: 's',
        action: { kind: 'tool', tool },
        extraActions: [],
        args,
        resources: [],
        extraBindings: [],
        fills: [],
        sensitiveArgs: [],
        parallel: false,
        optional: false,
      },
    ],
  });
  const codes = (model: WorkflowModel) => checkToolArguments(model, lookup).map((error) => [error.code, error.problem]);

  test.each([
    [
      'fitting arguments',
      [
        { name: 'city', source: { kind: 'promptArg', name: 'city' } },
        { name: 'days', source: { kind: 'constant', value: 3 } },
      ],
      [],
    ],
    ['a required input left unmapped', [{ name: 'days', source: { kind: 'constant', value: 2 } }], []],
    [
      'an unknown name',
      [{ name: 'citty', source: { kind: 'promptArg', name: 'city' } }],
      [[91032, "maps argument 'citty', but tool weather has no such input. Its inputs: 'city', 'days'. Did you mean 'city'?"]],
    ],
    [
      'a constant the schema rejects',
      [{ name: 'days', source: { kind: 'constant', value: 0 } }],
      [[91033, expect.stringContaining("argument 'days' of tool weather rejects the constant 0: Too small")]],
    ],
    [
      'a promptArg into a number',
      [{ name: 'days', source: { kind: 'promptArg', name: 'city' } }],
      [[91033, expect.stringContaining("argument 'days' of tool weather takes no string, but promptArg('city') always gives one")]],
    ],
    ['fromStep and field are left to the transformer and the run', [{ name: 'days', source: { kind: 'fromStep', binding: 'x' } }], []],
  ] as [string, WorkflowModel['steps'][number]['args'], unknown[]][])('%s', (_label, args, expected) => {
    expect(codes(workflow(args))).toEqual(expected);
  });

  test('a tool the lookup does not know is not checked here (the registration rule reports it)', () => {
    expect(codes(workflow([{ name: 'anything', source: { kind: 'constant', value: 1 } }], 'unknown_tool'))).toEqual([]);
  });

  test('an open schema (passthrough) takes names it does not list', () => {
    const open = describeInputSchema({ properties: { city: { type: 'string' } }, additionalProperties: {} });
    expect(
      checkToolArguments(workflow([{ name: 'extra', source: { kind: 'constant', value: 1 } }]), { toolInputSchema: () => open }),
    ).toEqual([]);
  });
});
