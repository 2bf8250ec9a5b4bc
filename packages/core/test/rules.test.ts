import 'reflect-metadata';
import { z } from 'zod';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Bind, Step, TemplateBinding, Workflow, constant, field, fromStep, promptArg } from '@mcpflow/decorators';
import {
  BindingUsedBeforeBoundError,
  DuplicateBindingError,
  DuplicateStepNameError,
  DuplicateWorkflowNameError,
  EmptyWorkflowError,
  ErrorCodes,
  InvalidStepActionError,
  InvalidStepOptionError,
  MisplacedDecoratorError,
  NotAWorkflowError,
  StepNameUsedAsBindingError,
  StepOutsideWorkflowError,
  UnboundUriVariableError,
  UndeclaredPromptArgumentError,
  UnknownBindingError,
  UnknownGuidancePlaceholderError,
  UnregisteredResourceError,
  UnregisteredToolError,
  UnusedTemplateBindingError,
  WorkflowValidationError,
  readWorkflowModel,
} from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v1';
import { WorkflowServer as WorkflowServerV2 } from '@mcpflow/core/v2';
import { askUser, defineTool } from '@mcpflow/decorators';

const server = () => new WorkflowServer({ name: 'rules', version: '1.0.0' });
const useError = (target: abstract new () => unknown): Error => {
  try {
    server().use(target);
  } catch (error) {
    return error as Error;
  }
  throw new Error('use() accepted a broken workflow');
};

describe('run-time validation rules (thrown by use())', () => {
  test('unknown binding: names the existing bindings and suggests the closest', () => {
    @Workflow({ name: 'review', arguments: { code: z.string() } })
    class Review {
      @Step({ tool: 'analyze_code', args: { code: promptArg('code') } })
      @Bind('analysis_result')
      analyze!: unknown;

      @Step({ tool: 'review_code', args: { analysis: fromStep('analysis') } })
      review!: unknown;
    }
    const error = useError(Review);
    expect(error).toBeInstanceOf(UnknownBindingError);
    expect(error.message).toBe(
      "Workflow 'review', step 'review': reads binding 'analysis', but no step binds it. Bindings available here: 'analysis_result'. " +
        "Did you mean 'analysis_result'? Fix: add @Bind('analysis') to an earlier step, or read one of the available bindings.",
    );
    expect((error as UnknownBindingError).code).toBe(91001);
  });

  test('binding used before it is bound names the later step', () => {
    @Workflow({ name: 'early' })
    class Early {
      @Step({ tool: 'first', args: { input: field('later', 'x') } })
      first!: unknown;

      @Step({ tool: 'second' })
      @Bind('later')
      second!: unknown;
    }
    const error = useError(Early);
    expect(error).toBeInstanceOf(BindingUsedBeforeBoundError);
    expect(error.message).toContain("step 'first': reads binding 'later' before it is bound: step 'second' binds it and runs later.");
    expect(error.message).toContain("Fix: declare step 'second' above step 'first'");
  });

  test('a step name used as a binding points at the binding of that step', () => {
    @Workflow({ name: 'names' })
    class Names {
      @Step({ tool: 'analyzer', name: 'analyze' })
      @Bind('analysis_result')
      analysis!: unknown;

      @Step({ tool: 'reviewer', args: { data: fromStep('analyze') } })
      review!: unknown;
    }
    const error = useError(Names);
    expect(error).toBeInstanceOf(StepNameUsedAsBindingError);
    expect(error.message).toContain(
      "reads 'analyze', which is a step name, not a binding. Step 'analyze' is bound as 'analysis_result'. Did you mean 'analysis_result'?",
    );
  });

  test('undeclared prompt argument suggests the declared one', () => {
    @Workflow({ name: 'translate', arguments: { language: z.string() } })
    class Translate {
      @Step({ tool: 'translate', args: { lang: promptArg('lang') } })
      run!: unknown;
    }
    const error = useError(Translate);
    expect(error).toBeInstanceOf(UndeclaredPromptArgumentError);
    expect(error.message).toContain(
      "step 'run': reads prompt argument 'lang', which the workflow does not declare. Declared arguments: 'language'. Did you mean 'language'?",
    );
  });

  test('unbound URI variable', () => {
    @Workflow({ name: 'hint' })
    class Hint {
      @Step({ resource: 'if://walkthrough/{game_id}' })
      walkthrough!: string;
    }
    const error = useError(Hint);
    expect(error).toBeInstanceOf(UnboundUriVariableError);
    expect(error.message).toBe(
      "Workflow 'hint', step 'walkthrough': URI 'if://walkthrough/{game_id}' holds {game_id}, but no @TemplateBinding('game_id', …) fills it. " +
        "Fix: add @TemplateBinding('game_id', field('<binding>', '<path>')) (or promptArg/fromStep/constant) to this step.",
    );
  });

  test('unused template binding, also checked against embedded resources', () => {
    @Workflow({ name: 'docs', arguments: { id: z.string() } })
    class Docs {
      @Step({ tool: 'lookup', resources: ['docs://page/{page}'] })
      @TemplateBinding('page', promptArg('id'))
      @TemplateBinding('id', promptArg('id'))
      lookup!: unknown;
    }
    const error = useError(Docs);
    expect(error).toBeInstanceOf(UnusedTemplateBindingError);
    expect(error.message).toContain("@TemplateBinding('id', …) fills no variable: this step's URIs hold {page}.");
  });

  test('unknown guidance placeholder; {{literal}} braces are fine', () => {
    @Workflow({ name: 'report', arguments: { project: z.string() } })
    class Report {
      @Step({ tool: 'build', guidance: 'Building {{not a placeholder}} for {projet}' })
      build!: unknown;
    }
    const error = useError(Report);
    expect(error).toBeInstanceOf(UnknownGuidancePlaceholderError);
    expect(error.message).toContain(
      "guidance holds {projet}, but the workflow declares no argument 'projet'. Declared arguments: 'project'. Did you mean 'project'?",
    );
  });

  test('duplicate binding and duplicate step name', () => {
    @Workflow({ name: 'dupes' })
    class Dupes {
      @Step({ tool: 'a' })
      @Bind('x')
      one!: unknown;

      @Step({ tool: 'b', name: 'one' })
      @Bind('x')
      two!: unknown;
    }
    const error = useError(Dupes) as WorkflowValidationError;
    expect(error).toBeInstanceOf(WorkflowValidationError);
    expect(error.errors.map((entry) => entry.constructor)).toEqual([DuplicateStepNameError, DuplicateBindingError]);
    expect(error.errors[1].message).toContain("step 'one': binds 'x', which step 'one' already binds.");
    expect(error.message).toMatch(/^2 workflow definition errors:\n {2}- Workflow 'dupes', step 'one': another step/);
  });

  test('duplicate workflow names given to one server', () => {
    @Workflow({ name: 'report' })
    class First {
      @Step({ tool: 'a' })
      a!: unknown;
    }
    @Workflow({ name: 'report' })
    class Second {
      @Step({ tool: 'a' })
      a!: unknown;
    }
    expect(() => server().use(First, Second)).toThrow(DuplicateWorkflowNameError);
    const once = server().use(First);
    expect(() => once.use(Second)).toThrow("class Second uses the prompt name 'report', which class First already uses.");
  });

  test('@Bind or @TemplateBinding without @Step', () => {
    @Workflow({ name: 'stray' })
    class Stray {
      @Step({ tool: 'a' })
      a!: unknown;

      @Bind('orphan')
      orphan!: unknown;
    }
    const error = useError(Stray);
    expect(error).toBeInstanceOf(MisplacedDecoratorError);
    expect(error.message).toContain("property 'orphan' has @Bind but no @Step");
  });

  test('@Step in a class without @Workflow: 91012, as the compiler reports it, one error a step', () => {
    class Plain {
      @Step({ tool: 'a' })
      a!: unknown;
    }
    const error = useError(Plain);
    expect(error).toBeInstanceOf(StepOutsideWorkflowError);
    expect((error as StepOutsideWorkflowError).code).toBe(ErrorCodes.StepOutsideWorkflow);
    expect(error.message).toBe(
      "Workflow 'Plain': class Plain has @Step on 'a' but no @Workflow, so the step never runs. " +
        "Fix: add @Workflow({ name: '…', description: '…' }) to class Plain.",
    );
    class Pair {
      @Step({ tool: 'a' })
      a!: unknown;

      @Step({ tool: 'b' })
      b!: unknown;
    }
    const errors = (useError(Pair) as WorkflowValidationError).errors;
    expect(errors.map((each) => [each.code, each.target])).toEqual([
      [ErrorCodes.StepOutsideWorkflow, { kind: 'strayDecorator', property: 'a', decorator: 'Step' }],
      [ErrorCodes.StepOutsideWorkflow, { kind: 'strayDecorator', property: 'b', decorator: 'Step' }],
    ]);
  });

  test('a class with neither @Workflow nor @Step given to use(): 91022', () => {
    class Helper {
      note = 'not a workflow';
    }
    const error = useError(Helper);
    expect(error).toBeInstanceOf(NotAWorkflowError);
    expect((error as NotAWorkflowError).code).toBe(ErrorCodes.NotAWorkflow);
    expect(error.message).toBe(
      "Workflow 'Helper': class Helper is not a workflow: it has no @Workflow. " +
        "Fix: decorate Helper with @Workflow({ name: '…', description: '…' }) before passing it to server.use().",
    );
  });

  test('a step names exactly one of tool and resource; options are in range', () => {
    @Workflow({ name: 'both' })
    class Both {
      @Step({ tool: 'a', resource: 'x://y' } as never)
      a!: unknown;
    }
    expect(useError(Both)).toBeInstanceOf(InvalidStepActionError);
    @Workflow({ name: 'options' })
    class Options {
      @Step({ tool: 'a', timeoutMs: -5 })
      a!: unknown;
    }
    expect(useError(Options)).toBeInstanceOf(InvalidStepOptionError);
    expect(useError(Options).message).toContain("option 'timeoutMs' is -5; it must be a positive number of milliseconds.");
  });

  test('a workflow with no step', () => {
    @Workflow({ name: 'idle', description: 'Does nothing yet' })
    class Idle {
      notes!: string;
    }
    const error = useError(Idle);
    expect(error).toBeInstanceOf(EmptyWorkflowError);
    expect(error.message).toBe(
      "Workflow 'idle': class Idle has no @Step property, so the prompt would run nothing and return only its plan. " +
        "Fix: add a step, such as @Step({ tool: '…' }) on a property of Idle, or register a plain prompt with server.registerPrompt() instead.",
    );
    expect((error as EmptyWorkflowError).code).toBe(91030);
  });

  test('an object or array constant cannot fill a URI variable', () => {
    @Workflow({ name: 'rooms' })
    class Rooms {
      @Step({ resource: 'map://rooms/{room}/{tags}' })
      @TemplateBinding('room', constant({ id: 'hall' }))
      @TemplateBinding('tags', constant(['a', 'b']))
      map!: string;
    }
    const error = useError(Rooms) as WorkflowValidationError;
    expect(error.errors.map((each) => [each.code, each.message.split(' Fix:')[0]])).toEqual([
      [
        91014,
        "Workflow 'rooms', step 'map': {room} would be filled with an object constant, but a URI variable takes a string, number or boolean.",
      ],
      [
        91014,
        "Workflow 'rooms', step 'map': {tags} would be filled with an array constant, but a URI variable takes a string, number or boolean.",
      ],
    ]);
  });

  test('steps inherited from a base class run first and are checked with the subclass', () => {
    abstract class ProgressSteps {
      @Step({ tool: 'get_my_progress', args: { player: promptArg('player') } })
      @Bind('progress')
      progress!: { game_id: string };
    }
    @Workflow({ name: 'inherited', arguments: { player: z.string() } })
    class Inherited extends ProgressSteps {
      @Step({ tool: 'hint', args: { game: field('progress', 'game_id') } })
      hint!: unknown;
    }
    @Workflow({ name: 'inherited_typo', arguments: { player: z.string() } })
    class InheritedTypo extends ProgressSteps {
      @Step({ tool: 'hint', args: { game: field('progres', 'game_id') } })
      hint!: unknown;
    }
    expect(readWorkflowModel(Inherited)?.steps.map((step) => step.name)).toEqual(['progress', 'hint']);
    expect(() => server().use(Inherited)).not.toThrow();
    expect(useError(InheritedTypo).message).toContain(
      "reads binding 'progres', but no step binds it. Bindings available here: 'progress'. Did you mean 'progress'?",
    );
  });

  test('a valid workflow passes, with every kind of data source', () => {
    @Workflow({ name: 'valid', arguments: { id: z.string(), note: z.string().optional() } })
    class Valid {
      @Step({ tool: 'fetch', args: { id: promptArg('id'), mode: constant('full') }, guidance: 'Fetching {id} ({note}), {{braces}}' })
      @Bind('data')
      data!: { items: { name: string }[] };

      @Step({ resource: 'db://items/{name}', resources: ['docs://about'] })
      @TemplateBinding('name', field('data', 'items.0.name'))
      @Bind('item')
      item!: string;

      @Step({ tool: 'store', args: { all: fromStep('data'), item: fromStep('item') } })
      store!: unknown;
    }
    expect(() => server().use(Valid)).not.toThrow();
  });
});

describe('registration rules (checked at connect() and validate())', () => {
  @Workflow({ name: 'lookup', arguments: { id: z.string() } })
  class Lookup {
    @Step({ tool: 'find_item', args: { id: promptArg('id') } })
    @Bind('item')
    item!: { kind: string };

    @Step({ resource: 'catalog://kinds/{kind}', resources: ['docs://style'] })
    @TemplateBinding('kind', field('item', 'kind'))
    kind!: string;
  }

  test('an unregistered tool rejects connect() before anything is served', async () => {
    const workflowServer = server().use(Lookup);
    workflowServer.registerTool('find_items', { inputSchema: { id: z.string() } }, async () => ({ content: [] }));
    const [, serverTransport] = InMemoryTransport.createLinkedPair();
    const connecting = workflowServer.connect(serverTransport);
    await expect(connecting).rejects.toThrow(WorkflowValidationError);
    await connecting.catch((error: WorkflowValidationError) => {
      expect(error.errors[0]).toBeInstanceOf(UnregisteredToolError);
      expect(error.errors[0].message).toContain(
        "calls tool 'find_item', which this server has not registered. Registered tools: 'find_items'. Did you mean 'find_items'?",
      );
      expect(error.errors.slice(1).map((entry) => entry.constructor)).toEqual([UnregisteredResourceError, UnregisteredResourceError]);
    });
    expect(workflowServer.isConnected()).toBe(false);
  });

  test('registered tools, static resources and templates satisfy validate()', () => {
    const workflowServer = server().use(Lookup);
    workflowServer.tool('find_item', { id: z.string() }, async () => ({ content: [] }));
    workflowServer.resource('kinds', new ResourceTemplate('catalog://kinds/{kind}', { list: undefined }), async (uri) => ({
      contents: [{ uri: uri.href, text: '' }],
    }));
    workflowServer.registerResource('style', 'docs://style', {}, async (uri) => ({ contents: [{ uri: uri.href, text: '' }] }));
    expect(() => workflowServer.validate()).not.toThrow();
  });
});

test('use() registers all classes or none: a name taken by a plain prompt fails first', async () => {
  @Workflow({ name: 'fresh' })
  class Fresh {
    @Step({ tool: 'a' })
    a!: unknown;
  }
  @Workflow({ name: 'taken' })
  class Taken {
    @Step({ tool: 'a' })
    a!: unknown;
  }
  const workflowServer = server();
  workflowServer.registerPrompt('taken', {}, () => ({ messages: [] }));
  expect(() => workflowServer.use(Fresh, Taken)).toThrow(
    'Prompt taken is already registered on this server; give workflow class Taken another name.',
  );
  expect(() => workflowServer.use(Fresh)).not.toThrow();
});

test('a template step with operator expressions is served by the matching resource template', () => {
  @Workflow({ name: 'search', arguments: { q: z.string() } })
  class Search {
    @Step({ resource: 'search://items{?q}' })
    @TemplateBinding('q', promptArg('q'))
    results!: string;
  }
  const workflowServer = server().use(Search);
  expect(() => workflowServer.validate()).toThrow(UnregisteredResourceError);
  workflowServer.registerResource('search', new ResourceTemplate('search://items{?q}', { list: undefined }), {}, async (uri) => ({
    contents: [{ uri: uri.href, text: '' }],
  }));
  expect(() => workflowServer.validate()).not.toThrow();
});

describe.each([
  ['v1', WorkflowServer],
  ['v2', WorkflowServerV2 as unknown as typeof WorkflowServer],
])('types checked end to end (%s)', (_line, Server) => {
  const order = defineTool('order', { inputSchema: { item: z.string(), quantity: z.number() } }, async () => ({ content: [] }));

  test('use() refuses a prompt-face workflow whose argument schema takes no string, naming it and the fix', () => {
    @Workflow({ name: 'order_count', arguments: { item: z.string(), quantity: z.number(), size: z.coerce.number() } })
    class OrderCount {
      @Step({ tool: order, args: { item: promptArg('item') } })
      ordered!: unknown;
    }
    expect(() => new Server({ name: 'shop', version: '1.0.0' }).use(OrderCount)).toThrow(
      expect.objectContaining({
        code: ErrorCodes.PromptArgumentType,
        message:
          "Workflow 'order_count': argument 'quantity' takes no string, but the workflow is served as a prompt, whose arguments are strings: every prompts/get would be refused. " +
          "Fix: declare 'quantity' as a string (z.string(), or z.coerce.number() to convert it), or serve the workflow only as a tool (expose: { prompt: false, tool: true }), whose arguments may have any schema.",
      }),
    );
  });

  test("an argument's schema is read once: a server per request does not parse it again, and one that takes no string is refused on every server", () => {
    const size = z.coerce.number();
    @Workflow({ name: 'order_sized', arguments: { item: z.string(), size } })
    class OrderSized {
      @Step({ tool: order, args: { item: promptArg('item') } })
      ordered!: unknown;
    }
    @Workflow({ name: 'order_counted', arguments: { item: z.string(), quantity: z.number() } })
    class OrderCounted {
      @Step({ tool: order, args: { item: promptArg('item') } })
      ordered!: unknown;
    }
    const parse = jest.spyOn(size, 'safeParse');
    new Server({ name: 'shop', version: '1.0.0' }).use(OrderSized);
    expect(parse).toHaveBeenCalled();
    parse.mockClear();
    for (let request = 0; request < 3; request += 1) new Server({ name: 'shop', version: '1.0.0' }).use(OrderSized);
    expect(parse).not.toHaveBeenCalled();
    for (let request = 0; request < 2; request += 1)
      expect(() => new Server({ name: 'shop', version: '1.0.0' }).use(OrderCounted)).toThrow(
        expect.objectContaining({ code: ErrorCodes.PromptArgumentType }),
      );
  });

  test('a workflow served only as a tool may declare any argument schemas', () => {
    @Workflow({ name: 'order_tool', arguments: { quantity: z.number() }, expose: { prompt: false, tool: true } })
    class OrderTool {
      @Step({ tool: order, args: { item: constant('apples') } })
      ordered!: unknown;
    }
    expect(() => new Server({ name: 'shop', version: '1.0.0' }).use(OrderTool)).not.toThrow();
  });

  test('validate() refuses an askUser without a schema into a number input of a tool named by string, naming the ask, the tool and the fix', () => {
    @Workflow({ name: 'order_asked', arguments: { item: z.string() } })
    class OrderAsked {
      @Step({ tool: 'order', args: { item: promptArg('item'), quantity: askUser('How many?') } })
      ordered!: unknown;
    }
    const server = new Server({ name: 'shop', version: '1.0.0' }).use(OrderAsked);
    server.registerTool('order', { inputSchema: { item: z.string(), quantity: z.number() } }, async () => ({ content: [] }));
    expect(() => server.validate()).toThrow(
      expect.objectContaining({
        message: expect.stringContaining(
          "Workflow 'order_asked', step 'ordered': askUser() fills argument 'quantity' of tool order, which takes no string, but its answer is a string (it has no schema, or a string one). " +
            "Fix: give the ask a schema of the argument's type",
        ) as unknown,
      }),
    );
  });

  test("use() refuses an askUser without a schema into a tool definition's number input, before registering anything", () => {
    @Workflow({ name: 'order_defined', arguments: { item: z.string() } })
    class OrderDefined {
      @Step({ tool: order, args: { item: promptArg('item'), quantity: askUser('How many?') } })
      ordered!: unknown;
    }
    const server = new Server({ name: 'shop', version: '1.0.0' });
    expect(() => server.use(OrderDefined)).toThrow(
      expect.objectContaining({
        code: ErrorCodes.AskAnswerType,
        message: expect.stringContaining("askUser() fills argument 'quantity' of tool order, which takes no string") as unknown,
      }),
    );
  });

  test('an askUser whose schema converts the answer to a number passes', () => {
    @Workflow({ name: 'order_coerced', arguments: { item: z.string() } })
    class OrderCoerced {
      @Step({ tool: order, args: { item: promptArg('item'), quantity: askUser('How many?', { schema: z.coerce.number() }) } })
      ordered!: unknown;
    }
    expect(() => new Server({ name: 'shop', version: '1.0.0' }).use(OrderCoerced).validate()).not.toThrow();
  });
  test('use() and validate() refuse a number, boolean or enum answer its input does not take, naming both types', () => {
    const ship = defineTool(
      'ship',
      { inputSchema: { item: z.string(), quantity: z.number(), express: z.boolean(), speed: z.enum(['slow', 'fast']) } },
      async () => ({ content: [] }),
    );
    @Workflow({ name: 'ship_asked', arguments: { item: z.string() } })
    class ShipAsked {
      @Step({
        tool: ship,
        args: { item: askUser('Which item number?', { schema: z.number() }), quantity: askUser('Gift?', { schema: z.boolean() }) },
      })
      first!: unknown;

      @Step({ tool: ship, args: { item: promptArg('item'), express: askUser('How many?', { schema: z.number().int() }) } })
      second!: unknown;

      @Step({ tool: ship, args: { item: promptArg('item'), speed: askUser('Speed?', { schema: z.enum(['slow', 'warp']) }) } })
      third!: unknown;

      @Step({ tool: ship, args: { item: promptArg('item'), speed: askUser('Speed?') } })
      fourth!: unknown;

      // Fit: each answer's type is the input's (an enum the input's enum holds).
      @Step({
        tool: ship,
        args: {
          quantity: askUser('How many?', { schema: z.number().int().min(1) }),
          express: askUser('Express?', { schema: z.boolean() }),
          speed: askUser('Speed?', { schema: z.enum(['fast']) }),
        },
      })
      fifth!: unknown;
    }
    const messages = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return ((error as { errors?: { message: string }[] }).errors ?? [error as { message: string }]).map((each) => each.message);
      }
      return [];
    };
    const expected = [
      "step 'first': askUser() fills argument 'item' of tool ship, which takes string, but its answer is of type number (its schema's output).",
      "step 'first': askUser() fills argument 'quantity' of tool ship, which takes number, but its answer is of type boolean (its schema's output).",
      "step 'second': askUser() fills argument 'express' of tool ship, which takes boolean, but its answer is of type number (its schema's output).",
      'step \'third\': askUser() fills argument \'speed\' of tool ship, which takes "slow" | "fast", but its answer is of type "slow" | "warp" (its schema\'s output).',
      'step \'fourth\': askUser() fills argument \'speed\' of tool ship, which takes "slow" | "fast", but its answer is a string (it has no schema, or a string one).',
    ];
    const byUse = messages(() => new Server({ name: 'shop', version: '1.0.0' }).use(ShipAsked));
    expect(byUse).toHaveLength(expected.length);
    expected.forEach((text, index) => expect(byUse[index]).toContain(text));
    // A server that registered the tool itself: validate() reads the same rule.
    const server = new Server({ name: 'shop', version: '1.0.0' });
    server.registerTool('ship', { inputSchema: ship.config.inputSchema }, async () => ({ content: [] }));
    const byValidate = messages(() => server.use(ShipAsked).validate());
    expect(byValidate).toHaveLength(expected.length);
  });
});
