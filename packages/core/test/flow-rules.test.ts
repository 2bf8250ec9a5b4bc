import 'reflect-metadata';
import { z } from 'zod';
import {
  Bind,
  Step,
  TemplateBinding,
  Workflow,
  constant,
  equals,
  field,
  fromStep,
  item,
  not,
  oneOf,
  present,
  promptArg,
} from '@mcpflow/decorators';
import {
  ForEachOverNonArrayError,
  InvalidStepOptionError,
  ItemOutsideForEachError,
  ParallelSiblingBindingError,
  UnregisteredResourceError,
  WorkflowResourceVariableError,
  WorkflowValidationError,
  parallelGroups,
  type WorkflowDefinitionError,
} from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v1';
import { WorkflowServer as WorkflowServerV2 } from '@mcpflow/core/v2';

const server = () => new WorkflowServer({ name: 'flow-rules', version: '1.0.0' });
/** The definition errors `use()` throws for a class, one or several. */
const useErrors = (target: abstract new () => unknown): WorkflowDefinitionError[] => {
  try {
    server().use(target);
  } catch (error) {
    return error instanceof WorkflowValidationError ? [...error.errors] : [error as WorkflowDefinitionError];
  }
  throw new Error('use() accepted a broken workflow');
};

describe('flow rules at use()', () => {
  test('a parallel step may not read a sibling binding, before or after it in the group', () => {
    @Workflow({ name: 'dashboard' })
    class Dashboard {
      @Step({ tool: 'list_projects' })
      @Bind('projects')
      projects!: unknown;

      @Step({ tool: 'count_issues', parallel: true, args: { projects: fromStep('projects'), prs: fromStep('prs') } })
      @Bind('issues')
      issues!: unknown;

      @Step({ tool: 'count_prs', parallel: true, args: { total: field('issues', 'total') } })
      @Bind('prs')
      prs!: unknown;

      @Step({ tool: 'report', args: { issues: fromStep('issues'), prs: fromStep('prs') } })
      report!: unknown;
    }
    const errors = useErrors(Dashboard);
    expect(errors.map((error) => error.constructor)).toEqual([ParallelSiblingBindingError, ParallelSiblingBindingError]);
    expect(errors.map((error) => error.message)).toEqual([
      "Workflow 'dashboard', step 'issues': reads binding 'prs' of step 'prs', which runs in the same parallel group, so it has no value yet. " +
        "Fix: remove 'parallel: true' from step 'issues' (or from step 'prs') so it runs after 'prs', or read a binding bound before the group.",
      "Workflow 'dashboard', step 'prs': reads binding 'issues' of step 'issues', which runs in the same parallel group, so it has no value yet. " +
        "Fix: remove 'parallel: true' from step 'prs' (or from step 'issues') so it runs after 'issues', or read a binding bound before the group.",
    ]);
    expect(errors[0].code).toBe(91060);
  });

  test('a condition that reads a sibling binding is caught too, and a step after the group may read it', () => {
    @Workflow({ name: 'gated' })
    class Gated {
      @Step({ tool: 'a', parallel: true })
      @Bind('a')
      a!: unknown;

      @Step({ tool: 'b', parallel: true, when: not(present(fromStep('a'))) })
      b!: unknown;

      @Step({ tool: 'c', when: present(fromStep('a')) })
      c!: unknown;
    }
    const [error] = useErrors(Gated);
    expect(error).toBeInstanceOf(ParallelSiblingBindingError);
    expect(error.target).toEqual({ kind: 'conditionSource', step: 'b', index: 0, part: 'binding' });
  });

  test('item() outside forEach: in args, in guidance and in the forEach source itself', () => {
    @Workflow({ name: 'triage' })
    class Triage {
      @Step({ tool: 'list_issues' })
      @Bind('issues')
      issues!: unknown;

      @Step({ tool: 'get_issue', args: { number: item('number') }, guidance: 'Fetching {item.title}.' })
      details!: unknown;

      @Step({ resource: 'issues://{number}', forEach: item() })
      @TemplateBinding('number', item('number'))
      read!: unknown;
    }
    const errors = useErrors(Triage);
    expect(errors.every((error) => error instanceof ItemOutsideForEachError && error.code === 91061)).toBe(true);
    expect(errors.map((error) => [error.step, error.target.kind])).toEqual([
      ['details', 'argSource'],
      ['read', 'forEachSource'],
      ['details', 'guidance'],
    ]);
    expect(errors[0].message).toBe(
      "Workflow 'triage', step 'details': reads item(), but the step has no forEach, so there is no current element. " +
        "Fix: add forEach: fromStep('<array binding>') to step 'details', or read the value with fromStep()/field() instead.",
    );
    expect(errors[1].message).toContain(
      "step 'read': reads item() in its own forEach source; the source is read before any element exists.",
    );
  });

  test('{item} stays a prompt argument placeholder outside forEach when the workflow declares one', () => {
    @Workflow({ name: 'shop', arguments: { item: z.string() } })
    class Shop {
      @Step({ tool: 'buy', args: { what: promptArg('item') }, guidance: 'Buying {item}.' })
      buy!: unknown;
    }
    expect(() => server().use(Shop)).not.toThrow();
  });

  test('forEach over a prompt argument or a non-array constant', () => {
    @Workflow({ name: 'batch', arguments: { ids: z.string() } })
    class Batch {
      @Step({ tool: 'each_id', forEach: promptArg('ids'), args: { id: item() } })
      ids!: unknown;

      @Step({ tool: 'each_constant', forEach: constant({ a: 1 }), args: { c: item() } })
      constants!: unknown;

      @Step({ tool: 'each_listed', forEach: constant(['a', 'b']), args: { c: item() } })
      listed!: unknown;
    }
    const errors = useErrors(Batch);
    expect(errors.map((error) => error.message)).toEqual([
      "Workflow 'batch', step 'ids': runs forEach over prompt argument 'ids' (prompt arguments are strings), which is not an array. " +
        "Fix: point forEach at an array: fromStep('<binding>') or field('<binding>', '<path>') whose type is an array, or an array constant().",
      `Workflow 'batch', step 'constants': runs forEach over the constant {"a":1}, which is not an array. ` +
        "Fix: point forEach at an array: fromStep('<binding>') or field('<binding>', '<path>') whose type is an array, or an array constant().",
    ]);
    expect(errors.every((error) => error instanceof ForEachOverNonArrayError && error.code === 91062)).toBe(true);
  });

  test('flow options out of range, or without forEach', () => {
    @Workflow({ name: 'flow_options', arguments: { lang: z.string() } })
    class FlowOptions {
      @Step({ tool: 'list', concurrency: 4 })
      @Bind('list')
      list!: unknown;

      @Step({ tool: 'each', forEach: fromStep('list'), args: { value: item() }, concurrency: 0, maxItems: 2.5 })
      each!: unknown;

      @Step({ tool: 'translate', when: oneOf(promptArg('lang'), []) })
      translated!: unknown;

      @Step({ tool: 'shape', transform: 'upper' as never, when: { kind: 'maybe' } as never })
      shaped!: unknown;
    }
    const errors = useErrors(FlowOptions);
    expect(errors.every((error) => error instanceof InvalidStepOptionError && error.code === 91021)).toBe(true);
    expect(errors.map((error) => error.message)).toEqual([
      "Workflow 'flow_options', step 'list': option 'concurrency' only applies to a forEach step, and this step has no forEach. Fix: add forEach: fromStep('<array binding>'), or remove concurrency.",
      "Workflow 'flow_options', step 'each': option 'concurrency' is 0; it must be a whole number of at least 1. Fix: set concurrency to 1 or more, or remove it.",
      "Workflow 'flow_options', step 'each': option 'maxItems' is 2.5; it must be a whole number of at least 1. Fix: set maxItems to 1 or more, or remove it.",
      "Workflow 'flow_options', step 'translated': option 'when' uses oneOf() with no values, so it is never true. Fix: build the condition with equals(), oneOf(), present() and not() from @mcpflow/decorators.",
      "Workflow 'flow_options', step 'shaped': option 'transform' is string; it must be a function from the step's value to the value to bind. Fix: write transform: (value) => …, or remove it.",
      "Workflow 'flow_options', step 'shaped': option 'when' is not a condition. Fix: build the condition with equals(), oneOf(), present() and not() from @mcpflow/decorators.",
    ]);
  });

  test('a condition reads only declared arguments and earlier bindings', () => {
    @Workflow({ name: 'conditional', arguments: { mode: z.string() } })
    class Conditional {
      @Step({ tool: 'run', when: equals(promptArg('mod'), 'full') })
      run!: unknown;
    }
    const [error] = useErrors(Conditional);
    expect(error.code).toBe(91004);
    expect(error.message).toContain("Did you mean 'mode'?");
    expect(error.target).toEqual({ kind: 'conditionSource', step: 'run', index: 0, part: 'name' });
  });

  test('instruction resources take no {variables}, and must be registered at connect()', () => {
    @Workflow({ name: 'styled', resources: ['docs://style-guide', 'docs://glossary/{lang}'] })
    class Styled {
      @Step({ tool: 'write' })
      write!: unknown;
    }
    const [error] = useErrors(Styled);
    expect(error).toBeInstanceOf(WorkflowResourceVariableError);
    expect(error.code).toBe(91065);
    expect(error.message).toBe(
      "Workflow 'styled': instruction resource 'docs://glossary/{lang}' holds a '{…}' template expression, but workflow resources are embedded before any step runs, so nothing can fill it. " +
        "Fix: use a fixed URI in @Workflow({ resources }), or move the URI to a step's resources and fill it with @TemplateBinding.",
    );

    @Workflow({ name: 'guided', resources: ['docs://style-guide'] })
    class Guided {
      @Step({ tool: 'write' })
      write!: unknown;
    }
    const guided = server().use(Guided);
    guided.registerTool('write', {}, async () => ({ content: [] }));
    expect(() => guided.validate()).toThrow(UnregisteredResourceError);
    expect(() => guided.validate()).toThrow(
      "Workflow 'guided': uses resource 'docs://style-guide', which no registered resource or resource template serves.",
    );
    guided.registerResource('style', 'docs://style-guide', {}, async (uri) => ({ contents: [{ uri: uri.href, text: 'Be brief.' }] }));
    expect(() => guided.validate()).not.toThrow();
  });

  test('a well-formed flow workflow is accepted', () => {
    @Workflow({ name: 'flow_ok', arguments: { repo: z.string() }, resources: ['docs://policy'] })
    class FlowOk {
      @Step({ tool: 'list', args: { repo: promptArg('repo') } })
      @Bind('issues')
      issues!: unknown;

      @Step({ tool: 'a', parallel: true, args: { issues: fromStep('issues') } })
      @Bind('a')
      a!: unknown;

      @Step({ tool: 'b', parallel: true, optional: true, when: present(fromStep('issues')) })
      @Bind('b')
      b!: unknown;

      @Step({
        tool: 'each',
        forEach: field('issues', 'items'),
        concurrency: 4,
        maxItems: 10,
        args: { n: item('number'), a: fromStep('a') },
        guidance: '#{item.number}',
      })
      @Bind('each')
      each!: unknown;
    }
    expect(() => server().use(FlowOk)).not.toThrow();
  });
});

describe.each([
  ['1.x', WorkflowServer],
  ['2.x', WorkflowServerV2 as unknown as typeof WorkflowServer],
])('the flow rules on the %s WorkflowServer', (_line, Server) => {
  test('use() throws them and validate() checks instruction resources', () => {
    @Workflow({ name: 'mixed', resources: ['docs://style-guide'] })
    class Mixed {
      @Step({ tool: 'a', parallel: true })
      @Bind('a')
      a!: unknown;

      @Step({ tool: 'b', parallel: true, args: { a: fromStep('a') } })
      b!: unknown;
    }
    expect(() => new Server({ name: 'x', version: '1.0.0' }).use(Mixed)).toThrow(ParallelSiblingBindingError);

    @Workflow({ name: 'guided', resources: ['docs://style-guide'] })
    class Guided {
      @Step({ tool: 'write', forEach: constant(['a']), args: { text: item() } })
      write!: unknown;
    }
    const server = new Server({ name: 'x', version: '1.0.0' }).use(Guided);
    server.registerTool('write', { inputSchema: { text: z.string() } }, async () => ({ content: [] }));
    expect(() => server.validate()).toThrow(
      "Workflow 'guided': uses resource 'docs://style-guide', which no registered resource or resource template serves.",
    );
  });
});

describe('parallelGroups', () => {
  test.each([
    [
      [false, false],
      [[0], [1]],
    ],
    [
      [true, true, false, true],
      [[0, 1], [2], [3]],
    ],
    [
      [false, true, true, true, false],
      [[0], [1, 2, 3], [4]],
    ],
    [[true], [[0]]],
  ])('%j → %j', (flags, expected) => {
    const steps = flags.map((parallel, index) => ({ parallel, index }));
    expect(parallelGroups(steps).map((group) => group.map((step) => step.index))).toEqual(expected);
  });
});
