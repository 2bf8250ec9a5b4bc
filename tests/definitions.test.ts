import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, constant, defineResource, defineTool, field, promptArg } from '@mcpflow/decorators';
import {
  ArgumentTypeError,
  DefinitionConflictError,
  UnknownToolArgumentError,
  WorkflowValidationError,
  type ExecutionMeta,
} from '@mcpflow/core';
import { messageText } from './helpers/connect';
import { LINES, MATRIX, type Line, type TestServer } from './helpers/lines';

const calls: string[] = [];

const getWeather = defineTool(
  'get_weather',
  {
    description: 'Current weather of a city',
    inputSchema: { city: z.string(), days: z.number().int().optional() },
    outputSchema: { celsius: z.number(), city: z.string() },
  },
  async ({ city }) => {
    calls.push(`get_weather ${city}`);
    const weather = { celsius: 21, city };
    return { content: [{ type: 'text', text: JSON.stringify(weather) }], structuredContent: weather };
  },
);

const forecast = defineResource('forecast', 'weather://forecast/{city}', { mimeType: 'text/plain' }, async (uri, { city }) => ({
  contents: [{ uri: uri.href, mimeType: 'text/plain', text: `Forecast for ${String(city)}: sunny` }],
}));

const styleGuide = defineResource('style_guide', 'docs://weather/style', { mimeType: 'text/markdown' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/markdown', text: 'Say degrees Celsius.' }],
}));

@Workflow({
  name: 'weather_report',
  description: 'Weather and forecast of a city',
  arguments: { city: z.string() },
  resources: [styleGuide],
})
class WeatherReport {
  @Step({ tool: getWeather, args: { city: promptArg('city'), days: constant(2) } })
  @Bind('weather')
  weather!: { celsius: number; city: string };

  @Step({ resource: forecast })
  @TemplateBinding('city', field('weather', 'city'))
  @Bind('forecast')
  forecast!: string;
}

@Workflow({ name: 'weather_only', arguments: { city: z.string() } })
class WeatherOnly {
  @Step({ tool: getWeather, args: { city: promptArg('city') } })
  weather!: unknown;
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;
const serverOf = (line: Line): TestServer => new line.WorkflowServer({ name: 'definitions', version: '1.0.0' });

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe.each(MATRIX)('definitions registered by use(): $label', ({ line, transport }) => {
  test('a client lists them and prompts/get runs them in process', async () => {
    calls.length = 0;
    const client = await line.connect(() => serverOf(line).use(WeatherReport, WeatherOnly), { transport });
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => [tool.name, tool.description, Object.keys(tool.inputSchema.properties ?? {})])).toEqual([
      ['get_weather', 'Current weather of a city', ['city', 'days']],
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
      'weather://forecast/{city}',
    ]);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['docs://weather/style']);

    const result = await client.getPrompt({ name: 'weather_report', arguments: { city: 'Lyon' } });
    expect(meta(result).status).toBe('completed');
    expect(calls).toEqual(['get_weather Lyon']);
    expect(result.messages.map(messageText)[0]).toBe('[resource docs://weather/style]');
    expect(result.messages.map(messageText).slice(-4)).toEqual([
      'Calling tool get_weather with arguments: {"city":"Lyon","days":2}',
      'Result of get_weather:\n{"celsius":21,"city":"Lyon"}',
      'Reading resource weather://forecast/Lyon',
      '[resource weather://forecast/Lyon]',
    ]);
    const called = await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    expect(called.structuredContent).toEqual({ celsius: 21, city: 'Oslo' });
    const read = await client.readResource({ uri: 'weather://forecast/Oslo' });
    expect(read.contents[0]).toMatchObject({ text: 'Forecast for Oslo: sunny' });
    await client.close();
  });

  test('the same definition used by two use() calls, or registered first, is registered once', async () => {
    const client = await line.connect(() => serverOf(line).registerDefinitions(getWeather).use(WeatherOnly).use(WeatherReport), {
      transport,
    });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['get_weather']);
    await client.close();
  });
});

describe.each(LINES)('definition conflicts at use(): $name', (line) => {
  const server = () => serverOf(line);

  test('two different definitions under one name: a clear error, and nothing is registered', () => {
    const impostor = defineTool('get_weather', { inputSchema: { town: z.string() } }, async () => ({ content: [] }));
    @Workflow({ name: 'impostor_weather', arguments: { city: z.string() } })
    class ImpostorWeather {
      @Step({ tool: impostor, args: { town: promptArg('city') } })
      weather!: unknown;
    }
    const target = server();
    const error = thrown(() => target.use(WeatherOnly, ImpostorWeather));
    expect(error).toBeInstanceOf(DefinitionConflictError);
    expect(error.message).toBe(
      "Workflow 'impostor_weather', step 'weather': uses a tool definition named 'get_weather', but another tool definition is already registered under that name, so the server cannot tell which to run. " +
        "Fix: use one definition object for 'get_weather' everywhere (export it from one module), or give one of them another name.",
    );
    expect((error as DefinitionConflictError).code).toBe(91035);
    // All or nothing: the first class's definition was not registered either.
    expect(() => target.use(WeatherOnly)).not.toThrow();
    expect(thrown(() => target.use(ImpostorWeather))).toBeInstanceOf(DefinitionConflictError);
  });

  test('a definition whose name a plain registerTool already took is a conflict too', () => {
    const target = server();
    target.registerTool('get_weather', { inputSchema: { city: z.string() } }, async () => ({ content: [] }));
    expect(thrown(() => target.use(WeatherOnly)).message).toContain(
      'but a tool registered without this definition is already registered under that name',
    );
  });
});

describe.each(LINES)('connect() and validate(): string-named tools are checked against their input schema: $name', (line) => {
  function weatherServer() {
    return weatherTool().target;
  }
  function weatherTool() {
    const target = serverOf(line);
    const handle = target.registerTool(
      'weather',
      {
        inputSchema: {
          city: z.string(),
          days: z.number().int().min(1).max(7).optional(),
          units: z.enum(['metric', 'imperial']).optional(),
          note: z.string().or(z.number()).optional(),
        },
      },
      async ({ city }) => ({ content: [{ type: 'text', text: `weather of ${city}` }] }),
    );
    return { target, handle };
  }
  const refused = async (target: TestServer): Promise<Error> =>
    line
      .connect(() => target)
      .then(
        () => {
          throw new Error('connect() accepted a broken workflow');
        },
        (error: Error) => error,
      );

  test('a misspelled argument name (required or optional) rejects connect(), with did-you-mean', async () => {
    @Workflow({ name: 'typos', arguments: { city: z.string() } })
    class Typos {
      @Step({ tool: 'weather', args: { citty: promptArg('city'), dayz: constant(3) } })
      forecast!: unknown;
    }
    const error = (await refused(weatherServer().use(Typos))) as WorkflowValidationError;
    expect(error).toBeInstanceOf(WorkflowValidationError);
    expect(error.errors.map((each) => each.message)).toEqual([
      "Workflow 'typos', step 'forecast': maps argument 'citty', but tool weather has no such input. Its inputs: 'city', 'days', 'units', 'note'. Did you mean 'city'? " +
        "Fix: rename the key in args to one of the tool's inputs, or remove it.",
      "Workflow 'typos', step 'forecast': maps argument 'dayz', but tool weather has no such input. Its inputs: 'city', 'days', 'units', 'note'. Did you mean 'days'? " +
        "Fix: rename the key in args to one of the tool's inputs, or remove it.",
    ]);
    expect(error.errors.every((each) => each instanceof UnknownToolArgumentError && each.code === 91032)).toBe(true);
  });

  test('a constant the schema rejects, and a promptArg into an input that takes no string', async () => {
    @Workflow({ name: 'wrong_types', arguments: { city: z.string(), days: z.string() } })
    class WrongTypes {
      @Step({ tool: 'weather', args: { city: promptArg('city'), days: promptArg('days'), units: constant('kelvin') } })
      forecast!: unknown;
    }
    const target = weatherServer().use(WrongTypes);
    const error = thrown(() => target.validate()) as WorkflowValidationError;
    expect(error.errors.map((each) => [each.code, each.message.split(' Fix:')[0]])).toEqual([
      [
        91033,
        "Workflow 'wrong_types', step 'forecast': argument 'days' of tool weather takes no string, but promptArg('days') always gives one (prompt arguments are strings).",
      ],
      [
        91033,
        expect.stringMatching(
          /^Workflow 'wrong_types', step 'forecast': argument 'units' of tool weather rejects the constant "kelvin": Invalid option: expected one of "metric"\|"imperial"$/,
        ),
      ],
    ]);
    expect(error.errors[0]).toBeInstanceOf(ArgumentTypeError);
    expect(await refused(target)).toBeInstanceOf(WorkflowValidationError);
  });

  test('fitting mappings pass; a required input left unmapped still connects and hands off without listing unknown arguments', async () => {
    @Workflow({ name: 'partial', arguments: { days: z.string().optional() } })
    class Partial {
      @Step({ tool: 'weather', args: { units: constant('metric'), note: promptArg('days') } })
      forecast!: unknown;
    }
    const { target, handle } = weatherTool();
    const client = await line.connect(() => target.use(Partial));
    const result = await client.getPrompt({ name: 'partial', arguments: { days: '3' } });
    expect(meta(result).status).toBe('handoff');
    expect(messageText(result.messages.at(-1)!)).toContain('Known arguments: {"units":"metric","note":"3"}');
    expect(messageText(result.messages.at(-1)!)).toContain('Arguments you must decide: city (string, required)');

    // The tool's schema changes after connect(): an argument it no longer takes is not listed as known.
    // 1.x takes a raw shape here, 2.x a Standard Schema.
    const narrower = { city: z.string(), units: z.string() };
    handle.update({ paramsSchema: (line.name === 'v1' ? narrower : z.object(narrower)) as typeof narrower });
    const later = await client.getPrompt({ name: 'partial', arguments: { days: '3' } });
    expect(messageText(later.messages.at(-1)!)).toContain('Known arguments: {"units":"metric"}\n');
    await client.close();
  });
});
