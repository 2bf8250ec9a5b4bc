import {
  ArgumentTypeError,
  AskAnswerTypeError,
  ErrorCodes,
  UnknownToolArgumentError,
  UnregisteredResourceError,
  UnregisteredToolError,
  checkRegistrations,
  checkToolArguments,
  type RegistrationLookup,
  type ToolInputSchema,
} from '@mcpflow/core/rules';
import {
  args,
  askModel,
  askUser,
  constant,
  field,
  promptArg,
  resourceStep,
  toolStep,
  workflow,
  type RuleCase,
  callTool,
} from '../plain-model';

/** A server that registers the tools `list_pages` and `weather` and the resource `docs://style`. */
const registered: RegistrationLookup = {
  hasTool: (name) => name === 'list_pages' || name === 'weather',
  toolNames: () => ['list_pages', 'weather'],
  servesUri: (uri) => uri === 'docs://style',
  resourcePatterns: () => ['docs://style'],
};

/** `weather`'s input: `city` (a string) and `days` (a whole number of at least 1). */
const weather: ToolInputSchema = {
  inputs: ['city', 'days'],
  open: false,
  acceptsString: (name) => name === 'city',
  compareValues: () => undefined,
  valueProblem: (name, value) =>
    name === 'days' && !(Number.isInteger(value) && (value as number) >= 1) ? 'expected a whole number of at least 1.' : undefined,
};
const schemas = { toolInputSchema: (name: string) => (name === 'weather' ? weather : undefined) };
const weatherStep = (sources: Parameters<typeof args>[0]) =>
  workflow([toolStep('forecast', { action: callTool('weather'), args: args(sources) })]);

/** What the server registers: tools and resources by name, and the inputs a tool's schema takes (at connect()). */
export const registryCases: RuleCase[] = [
  {
    label: 'registered tools and resources, arguments the schema takes (or does not list, when unchecked)',
    errors: () => {
      const model = workflow(
        [
          toolStep('list', { action: callTool('list_pages'), binding: 'pages', args: args({ anything: constant(1) }) }),
          toolStep('forecast', { action: callTool('weather'), args: args({ city: promptArg('project'), days: constant(3) }) }),
          resourceStep('style', 'docs://style', { args: [] }),
          toolStep('again', { action: callTool('weather'), args: args({ days: field('pages', 'count') }) }),
        ],
        { resources: ['docs://style'] },
      );
      return [...checkRegistrations(model, registered), ...checkToolArguments(model, schemas)];
    },
    expected: [],
  },
  {
    label: 'a tool the server never registered',
    errors: () => checkRegistrations(workflow([toolStep('list', { action: callTool('list_page') })]), registered),
    expected: [
      {
        type: UnregisteredToolError,
        code: ErrorCodes.UnregisteredTool,
        target: { kind: 'stepAction', step: 'list' },
        message:
          "Workflow 'report', step 'list': calls tool 'list_page', which this server has not registered. Registered tools: 'list_pages', 'weather'. Did you mean 'list_pages'? " +
          "Fix: the step's tool name 'list_page' is the likely typo: write tool: 'list_pages' in step 'list' (or its defineTool definition); " +
          "if 'list_page' is a tool of its own, register it with server.registerTool('list_page', …) before connecting.",
      },
    ],
  },
  {
    label: 'a resource nothing serves, read by a step and embedded as an instruction',
    errors: () => checkRegistrations(workflow([resourceStep('read', 'docs://guide')], { resources: ['docs://glossary'] }), registered),
    expected: [
      {
        type: UnregisteredResourceError,
        code: ErrorCodes.UnregisteredResource,
        target: { kind: 'workflowResource', index: 0, start: 0, end: 15 },
        message:
          "Workflow 'report': uses resource 'docs://glossary', which no registered resource or resource template serves. Registered: 'docs://style'. " +
          "Fix: register it with server.registerResource('…', 'docs://glossary' or new ResourceTemplate('docs://glossary', …), …) before connecting.",
      },
      {
        type: UnregisteredResourceError,
        code: ErrorCodes.UnregisteredResource,
        target: { kind: 'stepUri', step: 'read', start: 0, end: 12 },
        message:
          "Workflow 'report', step 'read': uses resource 'docs://guide', which no registered resource or resource template serves. Registered: 'docs://style'. " +
          "Fix: register it with server.registerResource('…', 'docs://guide' or new ResourceTemplate('docs://guide', …), …) before connecting.",
      },
    ],
  },
  {
    label: 'an argument the tool has no input for',
    errors: () => checkToolArguments(weatherStep({ citty: promptArg('project') }), schemas),
    expected: [
      {
        type: UnknownToolArgumentError,
        code: ErrorCodes.UnknownToolArgument,
        target: { kind: 'argSource', step: 'forecast', arg: 'citty', part: 'key' },
        message:
          "Workflow 'report', step 'forecast': maps argument 'citty', but tool weather has no such input. Its inputs: 'city', 'days'. Did you mean 'city'? " +
          "Fix: rename the key in args to one of the tool's inputs, or remove it.",
      },
    ],
  },
  {
    label: 'a constant the schema rejects, and a prompt argument into an input that takes no string',
    errors: () =>
      checkToolArguments(weatherStep({ days: constant(0) }), schemas).concat(
        checkToolArguments(weatherStep({ days: promptArg('project') }), schemas),
      ),
    expected: [
      {
        type: ArgumentTypeError,
        code: ErrorCodes.ArgumentType,
        target: { kind: 'argSource', step: 'forecast', arg: 'days', part: 'value' },
        message:
          "Workflow 'report', step 'forecast': argument 'days' of tool weather rejects the constant 0: expected a whole number of at least 1. " +
          'Fix: give a constant the input schema accepts.',
      },
      {
        type: ArgumentTypeError,
        code: ErrorCodes.ArgumentType,
        target: { kind: 'argSource', step: 'forecast', arg: 'days', part: 'value' },
        message:
          "Workflow 'report', step 'forecast': argument 'days' of tool weather takes no string, but promptArg('project') always gives one (prompt arguments are strings). " +
          "Fix: map 'days' from a step's output or a constant of the right type, or let the tool take a string and convert it.",
      },
    ],
  },
  {
    label:
      'an ask whose answer is a string (no schema, or a string one) into an input that takes no string; choices and other schemas are not checked here',
    errors: () =>
      checkToolArguments(weatherStep({ days: askUser('How many days?') }), schemas).concat(
        checkToolArguments(
          weatherStep({ days: askModel('How many days?', { schema: { type: 'string', safeParse: () => ({ success: true }) } }) }),
          schemas,
        ),
        checkToolArguments(weatherStep({ days: askUser('Days?', { choices: constant([1, 2]) }) }), schemas),
        checkToolArguments(
          weatherStep({ days: askUser('Days?', { schema: { type: 'number', safeParse: () => ({ success: true }) } }) }),
          schemas,
        ),
        checkToolArguments(weatherStep({ city: askUser('Which city?') }), schemas),
      ),
    expected: [
      {
        type: AskAnswerTypeError,
        code: ErrorCodes.AskAnswerType,
        target: { kind: 'argSource', step: 'forecast', arg: 'days', part: 'value' },
        message:
          "Workflow 'report', step 'forecast': askUser() fills argument 'days' of tool weather, which takes no string, but its answer is a string (it has no schema, or a string one). " +
          "Fix: give the ask a schema of the argument's type (askUser('…', { schema: z.coerce.number() }) for a number), or let the tool take a string.",
      },
      {
        type: AskAnswerTypeError,
        code: ErrorCodes.AskAnswerType,
        target: { kind: 'argSource', step: 'forecast', arg: 'days', part: 'value' },
        message:
          "Workflow 'report', step 'forecast': askModel() fills argument 'days' of tool weather, which takes no string, but its answer is a string (it has no schema, or a string one). " +
          "Fix: give the ask a schema of the argument's type (askModel('…', { schema: z.coerce.number() }) for a number), or let the tool take a string.",
      },
    ],
  },
];
