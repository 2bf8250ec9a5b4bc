import 'reflect-metadata';
import * as fs from 'node:fs';
import * as path from 'node:path';
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
  present,
  promptArg,
} from '@mcpflow/decorators';
import { readWorkflowModel } from '@mcpflow/core';
import { UriTemplate } from '@modelcontextprotocol/server';
import {
  advanceExecution,
  createExecutionState,
  executeWorkflow,
  executionResult,
  planWorkflow,
  stepContext,
  type ExecutionOptions,
  type Host,
  type HostTool,
  type StepEvent,
  type ToolResult,
  type WorkflowPlan,
} from '../src/engine';

/**
 * What the engine gives, byte for byte, on each path a step can take: the result as sent (messages
 * and `_meta`), the tools' calls, the `onStep` events and the progress notifications. Each scenario
 * states the exact output it expects, so a change to the engine that changes a single byte of it
 * fails here (CONTRIBUTING.md, "One engine").
 */

/** A tool's handler; `attempt` counts its earlier calls in the run (for retries). */
type Run = (args: Record<string, unknown>, signal: AbortSignal, attempt: number) => unknown;

interface PlainTool extends HostTool {
  readonly run: Run;
}

interface Scenario {
  readonly tools: Record<string, Run | 'disabled'>;
  readonly args?: Record<string, string>;
  /** The inputs each tool requires (by tool name), as a host's input schema says. */
  readonly required?: Record<string, string[]>;
  /** The host validates asynchronously, and refuses a `value` of `refuse`. */
  readonly asyncValidation?: boolean;
  readonly defaultStepTimeoutMs?: number | false;
  readonly hooks?: boolean;
  /** The tools that run a workflow (a sub-workflow step), by tool name: the workflow's name. */
  readonly workflows?: Record<string, string>;
  /** The resources the host serves, by URI: their text (JSON). */
  readonly resources?: Record<string, string>;
  /** Runs only the steps from this position, as a plan holding them, with these bindings already made. */
  readonly from?: { readonly position: number; readonly bindings: Record<string, unknown> };
  /** Aborts the request as this tool is called. */
  readonly abortAt?: string;
}

/** What the engine produced for a scenario: the result as sent, the tools' calls, the hooks' events, the progress sent. */
async function runScenario(plan: WorkflowPlan, scenario: Scenario): Promise<Output> {
  const controller = new AbortController();
  const calls: string[] = [];
  const events: unknown[] = [];
  const progress: unknown[] = [];
  const host: Host<PlainTool> = {
    signal: controller.signal,
    findTool: (name) => {
      const run = scenario.tools[name];
      if (run === undefined) return undefined;
      return run === 'disabled' ? { enabled: false, run: () => undefined } : { enabled: true, description: `the ${name} tool`, run };
    },
    toolInputs: (tool) => {
      const name = Object.keys(scenario.tools).find((key) => scenario.tools[key] === tool.run) ?? '';
      return (scenario.required?.[name] ?? []).map((input) => ({ name: input, required: true, type: 'string' }));
    },
    validateToolInput: (_tool, _name, args) => {
      const valid = args.value === 'refuse' ? { ok: false as const, message: 'value: refused' } : { ok: true as const, args };
      return scenario.asyncValidation ? Promise.resolve(valid) : valid;
    },
    workflowOf: (tool) => scenario.workflows?.[Object.keys(scenario.tools).find((key) => scenario.tools[key] === tool.run) ?? ''],
    invokeTool: (tool, name, args, signal) => {
      const attempt = calls.filter((call) => call.startsWith(`${name} `)).length;
      calls.push(`${name} ${JSON.stringify(args)}`);
      if (scenario.abortAt === name) controller.abort();
      return tool.run(args as Record<string, unknown>, signal.signal, attempt);
    },
    checkToolResult: (_tool, _name, value) => value as ToolResult,
    readResource: async (uri) => {
      calls.push(uri);
      const served = scenario.resources?.[uri];
      if (served === undefined) throw new Error('no such resource');
      return { contents: [{ uri, mimeType: 'application/json', text: served }] };
    },
    notifyProgress: scenario.hooks
      ? async (update) => {
          progress.push(update);
        }
      : undefined,
  };
  const onStep = (event: StepEvent) => {
    events.push(event.phase === 'end' ? { ...event, durationMs: 0 } : event);
  };
  const options = { onStep: scenario.hooks ? onStep : undefined, defaultStepTimeoutMs: scenario.defaultStepTimeoutMs };
  const result = scenario.from
    ? await runFrom(plan, scenario.from, host, options)
    : await executeWorkflow(plan, scenario.args ?? { input: 'hello' }, host, options);
  return { result, calls, events, progress };
}

/** What a scenario gives: the result as sent, the tools' calls (`name {args}`, or a resource's URI), the `onStep` events (durations 0), the progress sent. */
interface Output {
  readonly result: unknown;
  readonly calls: readonly string[];
  readonly events: readonly unknown[];
  readonly progress: readonly unknown[];
}

/** A prompt argument longer than the trace repeats (shown again as a reference to the intent). */
const LONG = 'x'.repeat(2_000);

/**
 * What each scenario must give, by its name, in `engine-output.expected.json`: its messages as
 * `{ role: text }` (or `{ role: content }` for content that is not text), its
 * `_meta["mcpflow/execution"]`, the calls, and the events and progress when it has hooks; `<LONG>`
 * stands for {@link LONG}. Read and checked line by line when the compiled runner was removed (both
 * engines gave these bytes); a change of the engine that changes them edits that file, by hand, in
 * the same commit.
 */
interface Expected {
  readonly messages: readonly Record<string, unknown>[];
  readonly meta: unknown;
  readonly calls: readonly string[];
  readonly events?: readonly unknown[];
  readonly progress?: readonly unknown[];
}

const EXPECTED = JSON.parse(
  fs.readFileSync(path.join(__dirname, 'engine-output.expected.json'), 'utf8').replaceAll('<LONG>', LONG),
) as Record<string, Expected>;

/** The output a scenario must give, as the engine sends it: each message `{ role, content }`, text as a text block. */
function wanted(name: string): Output {
  const expected = EXPECTED[name];
  const messages = expected.messages.map((message) => {
    const [[role, content]] = Object.entries(message);
    return { role, content: typeof content === 'string' ? { type: 'text', text: content } : content };
  });
  return {
    result: { messages, _meta: { 'mcpflow/execution': expected.meta } },
    calls: expected.calls,
    events: expected.events ?? [],
    progress: expected.progress ?? [],
  };
}

/** Runs the steps of `plan` from a position, as a plan holding only them (a round of a paused run holds all of them). */
async function runFrom(plan: WorkflowPlan, from: NonNullable<Scenario['from']>, host: Host, options: ExecutionOptions): Promise<unknown> {
  const part = { ...plan, steps: plan.steps.slice(from.position), groups: plan.groups.slice(from.position) };
  const state = createExecutionState(part, { input: 'hello' });
  Object.assign(state.bindings, from.bindings);
  state.position = from.position;
  const context = stepContext(part, state, host, options);
  await advanceExecution(state, context, options);
  return executionResult(state, context);
}

function plan(workflow: new () => object): WorkflowPlan {
  return planWorkflow(readWorkflowModel(workflow)!, (template) => new UriTemplate(template));
}

const text = (value: string): ToolResult => ({ content: [{ type: 'text', text: value }] });
const echo: Run = async (args) => text(JSON.stringify(args));

@Workflow({ name: 'paths', arguments: { input: z.string(), pin: z.string().optional() }, sensitiveArguments: ['pin'] })
class Paths {
  @Step({ tool: 'fetch', args: { value: promptArg('input'), pin: promptArg('pin') }, guidance: 'Fetching {input}.' })
  @Bind('fetched')
  fetched!: unknown;

  @Step({
    tool: 'use',
    args: {
      nested: field('fetched', 'a.b'),
      indexed: field('fetched', 'list.1'),
      whole: fromStep('fetched'),
      fixed: constant({ n: 1 }),
    },
  })
  @Bind('used')
  used!: unknown;

  @Step({ tool: 'last', args: { value: field('used', 'nested') } })
  last!: unknown;
}

const structured: Run = async (args) => ({
  content: [{ type: 'text', text: 'structured' }],
  structuredContent: { a: { b: `b-${String(args.value)}` }, list: ['zero', 'one'], pin: args.pin },
});

@Workflow({ name: 'secrets', arguments: { input: z.string() } })
class Secrets {
  @Step({ tool: 'login', args: { value: promptArg('input') } })
  @Bind('session')
  session!: unknown;

  @Step({ tool: 'use', args: { token: field('session', 'token'), value: promptArg('input') }, sensitiveArgs: ['token'] })
  @Bind('used')
  used!: unknown;
}

@Workflow({ name: 'flow', arguments: { input: z.string() } })
class Flow {
  @Step({ tool: 'list', args: { value: promptArg('input') } })
  @Bind('items')
  items!: unknown;

  @Step({ tool: 'each', forEach: fromStep('items'), args: { value: item('name') } })
  @Bind('each')
  each!: unknown;

  @Step({ tool: 'left', args: { value: constant('l') }, parallel: true })
  left!: unknown;

  @Step({ tool: 'right', args: { value: field('items', '0.name') }, parallel: true })
  right!: unknown;
}

@Workflow({ name: 'conditions', arguments: { input: z.string() } })
class Conditions {
  @Step({ tool: 'version', args: { value: promptArg('input') }, transform: (value: { v: string }) => value.v.split('.') })
  @Bind('version')
  version!: unknown;

  @Step({ tool: 'major', when: equals(field('version', '0'), '2'), args: { value: field('version', '0') } })
  major!: unknown;

  @Step({ tool: 'none', when: not(present(fromStep('version'))) })
  none!: unknown;

  @Step({ tool: 'maybe', optional: true, args: { value: field('version', '1') } })
  maybe!: unknown;

  @Step({ tool: 'secret', forEach: fromStep('version'), when: not(equals(item(), '9')), args: { value: item() }, sensitiveArgs: ['value'] })
  secret!: unknown;
}

@Workflow({ name: 'outer', arguments: { input: z.string() } })
class Outer {
  @Step({ tool: 'flaky', args: { value: promptArg('input') }, retry: { attempts: 3, backoffMs: 1 } })
  @Bind('flaky')
  flaky!: unknown;

  @Step({ tool: 'inner', args: { value: field('flaky', 'value') } })
  @Bind('inner')
  inner!: unknown;

  @Step({ tool: 'after', args: { value: field('inner', 'status') } })
  after!: unknown;
}

const flaky: Run = async (args, _signal, attempt) => (attempt < 2 ? { ...text('busy'), isError: true } : text(JSON.stringify(args)));
const innerRun = (status: string, reason?: string): Run => {
  return async () => ({
    content: [{ type: 'text', text: `inner ${status}` }],
    structuredContent: { status },
    _meta: { 'mcpflow/execution': { status, reason } },
  });
};

@Workflow({ name: 'uris', arguments: { input: z.string() } })
class Uris {
  @Step({ resource: 'doc://{name}', guidance: 'Reading {input}.' })
  @TemplateBinding('name', promptArg('input'))
  @Bind('doc')
  doc!: unknown;

  @Step({ tool: 'use', args: { value: field('doc', 'v') }, resources: ['doc://{id}'], guidance: 'Using {input}.' })
  @TemplateBinding('id', field('doc', 'id'))
  used!: unknown;
}

const SCENARIOS: [string, new () => object, Scenario][] = [
  [
    'field paths, constants, a binding whole, guidance and a sensitive argument',
    Paths,
    {
      tools: { fetch: structured, use: echo, last: echo },
      args: { input: 'hello', pin: '4321' },
    },
  ],
  [
    'a field path that leads nowhere hands off when the tool requires its input',
    Paths,
    { tools: { fetch: async () => text('{"a":{}}'), use: echo, last: echo }, required: { use: ['nested'] } },
  ],
  [
    'a field path that leads nowhere leaves an optional input out',
    Paths,
    { tools: { fetch: async () => text('{"a":{}}'), use: echo, last: echo } },
  ],
  [
    'an array index past the end leaves an optional input out',
    Paths,
    {
      tools: { fetch: async () => text('{"a":{"b":1},"list":["only"]}'), use: echo, last: echo },
    },
  ],
  ['a tool not registered', Paths, { tools: { fetch: structured } }],
  ['a disabled tool', Paths, { tools: { fetch: 'disabled' } }],
  [
    'a missing required input',
    Paths,
    {
      tools: { fetch: structured, use: echo, last: echo },
      required: { use: ['other'] },
    },
  ],
  ['a refused input', Paths, { tools: { fetch: echo }, args: { input: 'refuse' } }],
  ['a refused input, validated asynchronously', Paths, { tools: { fetch: echo }, args: { input: 'refuse' }, asyncValidation: true }],
  [
    'a tool that returns an error',
    Paths,
    {
      tools: { fetch: structured, use: async () => ({ ...text('nope'), isError: true }), last: echo },
    },
  ],
  [
    'a tool that throws synchronously',
    Paths,
    {
      tools: {
        fetch: () => {
          throw new TypeError('bad');
        },
      },
    },
  ],
  [
    'synchronous tools, plain text and no timeout',
    Paths,
    {
      tools: { fetch: () => text('{"a":{"b":2},"list":[1,2]}'), use: () => text('not json'), last: () => text('') },
      defaultStepTimeoutMs: false,
    },
  ],
  ['a tool that outlives its timeout', Paths, { tools: { fetch: () => new Promise(() => undefined) }, defaultStepTimeoutMs: 5 }],
  ['a request cancelled during a step', Paths, { tools: { fetch: structured, use: echo, last: echo }, abortAt: 'use' }],
  ['hooks and progress observe every step', Paths, { tools: { fetch: structured, use: echo, last: echo }, hooks: true }],
  [
    'a secret a step returns, redacted in an argument it feeds',
    Secrets,
    {
      tools: { login: async () => text('{"token":"tok-9"}'), use: echo },
      hooks: true,
    },
  ],
  [
    'a long prompt argument shown once',
    Secrets,
    { tools: { login: async () => text('{"token":"tok-7"}'), use: echo }, args: { input: LONG } },
  ],
  [
    'a loop and a parallel group',
    Flow,
    {
      tools: { list: async () => text('[{"name":"a"},{"name":"b"}]'), each: echo, left: echo, right: echo },
      hooks: true,
    },
  ],
  [
    'a parallel group with a failure',
    Flow,
    {
      tools: { list: async () => text('[{"name":"a"}]'), each: echo, left: async () => ({ ...text('down'), isError: true }), right: echo },
    },
  ],
  [
    'when, transform, optional, and a loop of sensitive elements',
    Conditions,
    {
      tools: {
        version: async () => text('{"v":"2.9.1"}'),
        major: echo,
        none: echo,
        maybe: () => Promise.reject(new Error('maybe not')),
        secret: echo,
      },
      hooks: true,
    },
  ],
  [
    'a false when, and a transform that throws',
    Conditions,
    {
      tools: { version: async () => text('{"v":1}'), major: echo, none: echo, maybe: echo, secret: echo },
    },
  ],
  [
    'a retried tool and a sub-workflow',
    Outer,
    {
      tools: { flaky, inner: innerRun('completed'), after: echo },
      workflows: { inner: 'inner-workflow' },
      hooks: true,
    },
  ],
  [
    'a retry that runs out',
    Outer,
    {
      tools: { flaky: async () => ({ ...text('busy'), isError: true }), inner: echo, after: echo },
    },
  ],
  [
    'a sub-workflow the user declined',
    Outer,
    {
      tools: { flaky, inner: innerRun('cancelled', 'declined by the user: "Archive it?"'), after: echo },
      workflows: { inner: 'inner-workflow' },
    },
  ],
  [
    'a plan holding the last two of three steps runs each by its own index',
    Paths,
    {
      tools: { fetch: echo, use: echo, last: async (args) => text(`last ${JSON.stringify(args)}`) },
      from: { position: 1, bindings: { fetched: { a: { b: 'b' }, list: [0, 1] } } },
    },
  ],
  [
    'a tool step that embeds a resource whose URI a binding fills, after a resource step',
    Uris,
    {
      tools: { use: echo },
      resources: { 'doc://hello': '{"id":"d-1","v":"value"}', 'doc://d-1': '{"more":true}' },
    },
  ],
  [
    'an embedded resource whose URI variable has no value',
    Uris,
    {
      tools: { use: echo },
      resources: { 'doc://hello': '{"v":"value"}' },
    },
  ],
  [
    'an embedded resource that cannot be read',
    Uris,
    {
      tools: { use: echo },
      resources: { 'doc://hello': '{"id":"missing","v":"value"}' },
    },
  ],
];

describe('the engine gives exactly the expected output', () => {
  test.each(SCENARIOS)('%s', async (name, workflow, scenario) => {
    const output = await runScenario(plan(workflow), scenario);
    // The values first (a readable diff), then the bytes as sent: key order and all.
    expect(output).toEqual(wanted(name));
    expect(JSON.stringify(output)).toBe(JSON.stringify(wanted(name)));
  });

  test('every scenario has its expected output, and every expected output its scenario', () => {
    expect(Object.keys(EXPECTED)).toEqual(SCENARIOS.map(([name]) => name));
  });
});
