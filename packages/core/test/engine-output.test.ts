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

/** What a scenario must give: its messages, its `_meta["mcpflow/execution"]`, the calls, and the events and progress when it has hooks. */
interface Expected {
  readonly messages: readonly unknown[];
  readonly meta: unknown;
  readonly calls: readonly string[];
  readonly events?: readonly unknown[];
  readonly progress?: readonly unknown[];
}

const user = (text: string) => ({ role: 'user', content: { type: 'text', text } });
const assistant = (text: string) => ({ role: 'assistant', content: { type: 'text', text } });
/** A JSON resource embedded in the trace, as the test's host serves it. */
const embedded = (uri: string, text: string) => ({
  role: 'user',
  content: { type: 'resource', resource: { uri, mimeType: 'application/json', text } },
});

/** A prompt argument longer than the trace repeats (shown again as a reference to the intent). */
const LONG = 'x'.repeat(2_000);

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

const SCENARIOS: [string, new () => object, Scenario, Expected][] = [
  [
    'field paths, constants, a binding whole, guidance and a sensitive argument',
    Paths,
    {
      tools: { fetch: structured, use: echo, last: echo },
      args: { input: 'hello', pin: '4321' },
    },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello\n- pin: [redacted]'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello","pin":"[redacted]"}'),
        user('Result of fetch:\nstructured'),
        assistant(
          'Calling tool use with arguments: {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"],"pin":"[redacted]"},"fixed":{"n":1}}',
        ),
        user(
          'Result of use:\n{"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"],"pin":"[redacted]"},"fixed":{"n":1}}',
        ),
        assistant('Calling tool last with arguments: {"value":"b-hello"}'),
        user('Result of last:\n{"value":"b-hello"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'completed' },
          { name: 'last', status: 'completed' },
        ],
      },
      calls: [
        'fetch {"value":"hello","pin":"4321"}',
        'use {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"],"pin":"4321"},"fixed":{"n":1}}',
        'last {"value":"b-hello"}',
      ],
    },
  ],
  [
    'a field path that leads nowhere hands off when the tool requires its input',
    Paths,
    { tools: { fetch: async () => text('{"a":{}}'), use: echo, last: echo }, required: { use: ['nested'] } },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\n{"a":{}}'),
        assistant(
          "I cannot complete step 'used' on the server: tool use needs 'nested' (field 'a.b' is not in binding 'fetched': 'a' is an object and has no 'b').\nThe remaining steps are yours to complete, in order:\n2. used: call tool use — the use tool\n   Arguments still to resolve: nested (field 'a.b' is not in binding 'fetched': 'a' is an object and has no 'b')\n3. last: call tool last — the last tool\n   Arguments you must decide: nested (string, required)\nUse the guidance and resources above; call each tool yourself once its arguments are known.",
        ),
      ],
      meta: {
        status: 'handoff',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'handoff' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'used',
        reason: "tool use needs 'nested' (field 'a.b' is not in binding 'fetched': 'a' is an object and has no 'b')",
      },
      calls: ['fetch {"value":"hello"}'],
    },
  ],
  [
    'a field path that leads nowhere leaves an optional input out',
    Paths,
    { tools: { fetch: async () => text('{"a":{}}'), use: echo, last: echo } },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\n{"a":{}}'),
        assistant('Calling tool use with arguments: {"whole":{"a":{}},"fixed":{"n":1}}'),
        user('Result of use:\n{"whole":{"a":{}},"fixed":{"n":1}}'),
        assistant('Calling tool last with arguments: {}'),
        user('Result of last:\n{}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'completed' },
          { name: 'last', status: 'completed' },
        ],
      },
      calls: ['fetch {"value":"hello"}', 'use {"whole":{"a":{}},"fixed":{"n":1}}', 'last {}'],
    },
  ],
  [
    'an array index past the end leaves an optional input out',
    Paths,
    {
      tools: { fetch: async () => text('{"a":{"b":1},"list":["only"]}'), use: echo, last: echo },
    },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\n{"a":{"b":1},"list":["only"]}'),
        assistant('Calling tool use with arguments: {"nested":1,"whole":{"a":{"b":1},"list":["only"]},"fixed":{"n":1}}'),
        user('Result of use:\n{"nested":1,"whole":{"a":{"b":1},"list":["only"]},"fixed":{"n":1}}'),
        assistant('Calling tool last with arguments: {"value":1}'),
        user('Result of last:\n{"value":1}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'completed' },
          { name: 'last', status: 'completed' },
        ],
      },
      calls: ['fetch {"value":"hello"}', 'use {"nested":1,"whole":{"a":{"b":1},"list":["only"]},"fixed":{"n":1}}', 'last {"value":1}'],
    },
  ],
  [
    'a tool not registered',
    Paths,
    { tools: { fetch: structured } },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use\n3. last: call tool last'),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\nstructured'),
        user("Step 'used' failed: tool use is not registered on this server. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'failed' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'used',
        reason: 'tool use is not registered on this server',
      },
      calls: ['fetch {"value":"hello"}'],
    },
  ],
  [
    'a disabled tool',
    Paths,
    { tools: { fetch: 'disabled' } },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. fetched: call tool fetch\n2. used: call tool use\n3. last: call tool last'),
        assistant('Fetching hello.'),
        user("Step 'fetched' failed: tool fetch is disabled. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'fetched', status: 'failed' },
          { name: 'used', status: 'skipped' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'fetched',
        reason: 'tool fetch is disabled',
      },
      calls: [],
    },
  ],
  [
    'a missing required input',
    Paths,
    {
      tools: { fetch: structured, use: echo, last: echo },
      required: { use: ['other'] },
    },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\nstructured'),
        assistant(
          "I cannot complete step 'used' on the server: tool use needs 'other' (no argument of the step provides it).\nThe remaining steps are yours to complete, in order:\n2. used: call tool use — the use tool\n   Arguments you must decide: other (string, required)\n3. last: call tool last — the last tool\n   Arguments you must decide: other (string, required)\nUse the guidance and resources above; call each tool yourself once its arguments are known.",
        ),
      ],
      meta: {
        status: 'handoff',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'handoff' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'used',
        reason: "tool use needs 'other' (no argument of the step provides it)",
      },
      calls: ['fetch {"value":"hello"}'],
    },
  ],
  [
    'a refused input',
    Paths,
    { tools: { fetch: echo }, args: { input: 'refuse' } },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: refuse'),
        assistant('Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use\n3. last: call tool last'),
        assistant('Fetching refuse.'),
        assistant(
          "I cannot complete step 'fetched' on the server: value: refused.\nThe remaining steps are yours to complete, in order:\n1. fetched: call tool fetch — the fetch tool\n   Known arguments: {\"value\":\"refuse\"}\n   Arguments still to resolve: pin (prompt argument 'pin' was not provided)\n2. used: call tool use\n   Known arguments: {\"fixed\":{\"n\":1}}\n   Arguments still to resolve: nested (from the result bound as 'fetched' by an earlier remaining step); indexed (from the result bound as 'fetched' by an earlier remaining step); whole (from the result bound as 'fetched' by an earlier remaining step)\n3. last: call tool last\n   Arguments still to resolve: value (from the result bound as 'used' by an earlier remaining step)\nUse the guidance and resources above; call each tool yourself once its arguments are known.",
        ),
      ],
      meta: {
        status: 'handoff',
        steps: [
          { name: 'fetched', status: 'handoff' },
          { name: 'used', status: 'skipped' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'fetched',
        reason: 'value: refused',
      },
      calls: [],
    },
  ],
  [
    'a refused input, validated asynchronously',
    Paths,
    { tools: { fetch: echo }, args: { input: 'refuse' }, asyncValidation: true },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: refuse'),
        assistant('Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use\n3. last: call tool last'),
        assistant('Fetching refuse.'),
        assistant(
          "I cannot complete step 'fetched' on the server: value: refused.\nThe remaining steps are yours to complete, in order:\n1. fetched: call tool fetch — the fetch tool\n   Known arguments: {\"value\":\"refuse\"}\n   Arguments still to resolve: pin (prompt argument 'pin' was not provided)\n2. used: call tool use\n   Known arguments: {\"fixed\":{\"n\":1}}\n   Arguments still to resolve: nested (from the result bound as 'fetched' by an earlier remaining step); indexed (from the result bound as 'fetched' by an earlier remaining step); whole (from the result bound as 'fetched' by an earlier remaining step)\n3. last: call tool last\n   Arguments still to resolve: value (from the result bound as 'used' by an earlier remaining step)\nUse the guidance and resources above; call each tool yourself once its arguments are known.",
        ),
      ],
      meta: {
        status: 'handoff',
        steps: [
          { name: 'fetched', status: 'handoff' },
          { name: 'used', status: 'skipped' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'fetched',
        reason: 'value: refused',
      },
      calls: [],
    },
  ],
  [
    'a tool that returns an error',
    Paths,
    {
      tools: { fetch: structured, use: async () => ({ ...text('nope'), isError: true }), last: echo },
    },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\nstructured'),
        assistant(
          'Calling tool use with arguments: {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"]},"fixed":{"n":1}}',
        ),
        user("Step 'used' failed: tool use returned an error: nope. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'failed' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'used',
        reason: 'tool use returned an error: nope',
      },
      calls: [
        'fetch {"value":"hello"}',
        'use {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"]},"fixed":{"n":1}}',
      ],
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
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use\n3. last: call tool last'),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user("Step 'fetched' failed: tool fetch threw: bad. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'fetched', status: 'failed' },
          { name: 'used', status: 'skipped' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'fetched',
        reason: 'tool fetch threw: bad',
      },
      calls: ['fetch {"value":"hello"}'],
    },
  ],
  [
    'synchronous tools, plain text and no timeout',
    Paths,
    {
      tools: { fetch: () => text('{"a":{"b":2},"list":[1,2]}'), use: () => text('not json'), last: () => text('') },
      defaultStepTimeoutMs: false,
    },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\n{"a":{"b":2},"list":[1,2]}'),
        assistant('Calling tool use with arguments: {"nested":2,"indexed":2,"whole":{"a":{"b":2},"list":[1,2]},"fixed":{"n":1}}'),
        user('Result of use:\nnot json'),
        assistant('Calling tool last with arguments: {}'),
        user('Result of last:\n(no text content)'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'completed' },
          { name: 'last', status: 'completed' },
        ],
      },
      calls: ['fetch {"value":"hello"}', 'use {"nested":2,"indexed":2,"whole":{"a":{"b":2},"list":[1,2]},"fixed":{"n":1}}', 'last {}'],
    },
  ],
  [
    'a tool that outlives its timeout',
    Paths,
    { tools: { fetch: () => new Promise(() => undefined) }, defaultStepTimeoutMs: 5 },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use\n3. last: call tool last'),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user("Step 'fetched' failed: tool fetch timed out after 5 ms. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'fetched', status: 'failed' },
          { name: 'used', status: 'skipped' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'fetched',
        reason: 'tool fetch timed out after 5 ms',
      },
      calls: ['fetch {"value":"hello"}'],
    },
  ],
  [
    'a request cancelled during a step',
    Paths,
    { tools: { fetch: structured, use: echo, last: echo }, abortAt: 'use' },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\nstructured'),
        assistant(
          'Calling tool use with arguments: {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"]},"fixed":{"n":1}}',
        ),
        user("Step 'used' failed: the request was cancelled during tool use. The workflow stopped here."),
      ],
      meta: {
        status: 'cancelled',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'cancelled' },
          { name: 'last', status: 'skipped' },
        ],
        stoppedAt: 'used',
        reason: 'the request was cancelled during tool use',
      },
      calls: [
        'fetch {"value":"hello"}',
        'use {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"]},"fixed":{"n":1}}',
      ],
    },
  ],
  [
    'hooks and progress observe every step',
    Paths,
    { tools: { fetch: structured, use: echo, last: echo }, hooks: true },
    {
      messages: [
        user('Run the paths workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. fetched: call tool fetch — the fetch tool\n2. used: call tool use — the use tool\n3. last: call tool last — the last tool',
        ),
        assistant('Fetching hello.'),
        assistant('Calling tool fetch with arguments: {"value":"hello"}'),
        user('Result of fetch:\nstructured'),
        assistant(
          'Calling tool use with arguments: {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"]},"fixed":{"n":1}}',
        ),
        user('Result of use:\n{"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"]},"fixed":{"n":1}}'),
        assistant('Calling tool last with arguments: {"value":"b-hello"}'),
        user('Result of last:\n{"value":"b-hello"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'fetched', status: 'completed' },
          { name: 'used', status: 'completed' },
          { name: 'last', status: 'completed' },
        ],
      },
      calls: [
        'fetch {"value":"hello"}',
        'use {"nested":"b-hello","indexed":"one","whole":{"a":{"b":"b-hello"},"list":["zero","one"]},"fixed":{"n":1}}',
        'last {"value":"b-hello"}',
      ],
      events: [
        { phase: 'start', workflow: 'paths', step: 'fetched', index: 0, total: 3 },
        { phase: 'end', workflow: 'paths', step: 'fetched', index: 0, total: 3, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'paths', step: 'used', index: 1, total: 3 },
        { phase: 'end', workflow: 'paths', step: 'used', index: 1, total: 3, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'paths', step: 'last', index: 2, total: 3 },
        { phase: 'end', workflow: 'paths', step: 'last', index: 2, total: 3, status: 'completed', durationMs: 0 },
      ],
      progress: [
        { progress: 0.5, total: 3, message: 'Started step 1 of 3: fetched' },
        { progress: 1, total: 3, message: 'Finished step 1 of 3: fetched' },
        { progress: 1.5, total: 3, message: 'Started step 2 of 3: used' },
        { progress: 2, total: 3, message: 'Finished step 2 of 3: used' },
        { progress: 2.5, total: 3, message: 'Started step 3 of 3: last' },
        { progress: 3, total: 3, message: 'Finished step 3 of 3: last' },
      ],
    },
  ],
  [
    'a secret a step returns, redacted in an argument it feeds',
    Secrets,
    {
      tools: { login: async () => text('{"token":"tok-9"}'), use: echo },
      hooks: true,
    },
    {
      messages: [
        user('Run the secrets workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. session: call tool login — the login tool\n2. used: call tool use — the use tool'),
        assistant('Calling tool login with arguments: {"value":"hello"}'),
        user('Result of login:\n{"token":"[redacted]"}'),
        assistant('Calling tool use with arguments: {"token":"[redacted]","value":"hello"}'),
        user('Result of use:\n{"token":"[redacted]","value":"hello"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'session', status: 'completed' },
          { name: 'used', status: 'completed' },
        ],
      },
      calls: ['login {"value":"hello"}', 'use {"token":"tok-9","value":"hello"}'],
      events: [
        { phase: 'start', workflow: 'secrets', step: 'session', index: 0, total: 2 },
        { phase: 'end', workflow: 'secrets', step: 'session', index: 0, total: 2, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'secrets', step: 'used', index: 1, total: 2 },
        { phase: 'end', workflow: 'secrets', step: 'used', index: 1, total: 2, status: 'completed', durationMs: 0 },
      ],
      progress: [
        { progress: 0.5, total: 2, message: 'Started step 1 of 2: session' },
        { progress: 1, total: 2, message: 'Finished step 1 of 2: session' },
        { progress: 1.5, total: 2, message: 'Started step 2 of 2: used' },
        { progress: 2, total: 2, message: 'Finished step 2 of 2: used' },
      ],
    },
  ],
  [
    'a long prompt argument shown once',
    Secrets,
    { tools: { login: async () => text('{"token":"tok-7"}'), use: echo }, args: { input: LONG } },
    {
      messages: [
        user(`Run the secrets workflow.
Arguments:
- input: ${LONG}`),
        assistant('Plan:\n1. session: call tool login — the login tool\n2. used: call tool use — the use tool'),
        assistant('Calling tool login with arguments: {"value":"[the prompt argument \'input\' above, 2,000 characters]"}'),
        user('Result of login:\n{"token":"[redacted]"}'),
        assistant(
          'Calling tool use with arguments: {"token":"[redacted]","value":"[the prompt argument \'input\' above, 2,000 characters]"}',
        ),
        user(`Result of use:
{"token":"[redacted]","value":"${LONG}"}`),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'session', status: 'completed' },
          { name: 'used', status: 'completed' },
        ],
      },
      calls: [`login {"value":"${LONG}"}`, `use {"token":"tok-7","value":"${LONG}"}`],
    },
  ],
  [
    'a loop and a parallel group',
    Flow,
    {
      tools: { list: async () => text('[{"name":"a"},{"name":"b"}]'), each: echo, left: echo, right: echo },
      hooks: true,
    },
    {
      messages: [
        user('Run the flow workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. items: call tool list — the list tool\n2. each: call tool each — the each tool\n3. left: call tool left — the left tool\n4. right: call tool right — the right tool',
        ),
        assistant('Calling tool list with arguments: {"value":"hello"}'),
        user('Result of list:\n[{"name":"a"},{"name":"b"}]'),
        assistant('Calling tool each with arguments: {"value":"a"}'),
        user('Result of each:\n{"value":"a"}'),
        assistant('Calling tool each with arguments: {"value":"b"}'),
        user('Result of each:\n{"value":"b"}'),
        assistant('Calling tool left with arguments: {"value":"l"}'),
        user('Result of left:\n{"value":"l"}'),
        assistant('Calling tool right with arguments: {"value":"a"}'),
        user('Result of right:\n{"value":"a"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'items', status: 'completed' },
          { name: 'each', status: 'completed', iterations: { count: 2, completed: 2, skipped: 0, failed: 0, cancelled: 0, failures: [] } },
          { name: 'left', status: 'completed' },
          { name: 'right', status: 'completed' },
        ],
      },
      calls: ['list {"value":"hello"}', 'each {"value":"a"}', 'each {"value":"b"}', 'left {"value":"l"}', 'right {"value":"a"}'],
      events: [
        { phase: 'start', workflow: 'flow', step: 'items', index: 0, total: 4 },
        { phase: 'end', workflow: 'flow', step: 'items', index: 0, total: 4, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'flow', step: 'each', index: 1, total: 4 },
        { phase: 'start', workflow: 'flow', step: 'each', index: 1, total: 4, iteration: { index: 0, count: 2 } },
        {
          phase: 'end',
          workflow: 'flow',
          step: 'each',
          index: 1,
          total: 4,
          iteration: { index: 0, count: 2 },
          status: 'completed',
          durationMs: 0,
        },
        { phase: 'start', workflow: 'flow', step: 'each', index: 1, total: 4, iteration: { index: 1, count: 2 } },
        {
          phase: 'end',
          workflow: 'flow',
          step: 'each',
          index: 1,
          total: 4,
          iteration: { index: 1, count: 2 },
          status: 'completed',
          durationMs: 0,
        },
        { phase: 'end', workflow: 'flow', step: 'each', index: 1, total: 4, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'flow', step: 'left', index: 2, total: 4 },
        { phase: 'start', workflow: 'flow', step: 'right', index: 3, total: 4 },
        { phase: 'end', workflow: 'flow', step: 'left', index: 2, total: 4, status: 'completed', durationMs: 0 },
        { phase: 'end', workflow: 'flow', step: 'right', index: 3, total: 4, status: 'completed', durationMs: 0 },
      ],
      progress: [
        { progress: 0.5, total: 4, message: 'Started step 1 of 4: items' },
        { progress: 1, total: 4, message: 'Finished step 1 of 4: items' },
        { progress: 1.5, total: 4, message: 'Started step 2 of 4: each' },
        { progress: 2, total: 5, message: 'Finished item 1 of 2 of step 2 of 4: each' },
        { progress: 3, total: 5, message: 'Finished item 2 of 2 of step 2 of 4: each' },
        { progress: 4, total: 5, message: 'Finished step 3 of 4: left' },
        { progress: 5, total: 5, message: 'Finished step 4 of 4: right' },
      ],
    },
  ],
  [
    'a parallel group with a failure',
    Flow,
    {
      tools: { list: async () => text('[{"name":"a"}]'), each: echo, left: async () => ({ ...text('down'), isError: true }), right: echo },
    },
    {
      messages: [
        user('Run the flow workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. items: call tool list — the list tool\n2. each: call tool each — the each tool\n3. left: call tool left — the left tool\n4. right: call tool right — the right tool',
        ),
        assistant('Calling tool list with arguments: {"value":"hello"}'),
        user('Result of list:\n[{"name":"a"}]'),
        assistant('Calling tool each with arguments: {"value":"a"}'),
        user('Result of each:\n{"value":"a"}'),
        assistant('Calling tool left with arguments: {"value":"l"}'),
        assistant('Calling tool right with arguments: {"value":"a"}'),
        user('Result of right:\n{"value":"a"}'),
        user("Step 'left' failed: tool left returned an error: down. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'items', status: 'completed' },
          { name: 'each', status: 'completed', iterations: { count: 1, completed: 1, skipped: 0, failed: 0, cancelled: 0, failures: [] } },
          { name: 'left', status: 'failed' },
          { name: 'right', status: 'completed' },
        ],
        stoppedAt: 'left',
        reason: 'tool left returned an error: down',
      },
      calls: ['list {"value":"hello"}', 'each {"value":"a"}', 'left {"value":"l"}', 'right {"value":"a"}'],
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
    {
      messages: [
        user('Run the conditions workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n[redacted]. version: call tool version — the version tool\n[redacted]. major: call tool major — the major tool\n3. none: call tool none — the none tool\n4. maybe: call tool maybe — the maybe tool\n5. secret: call tool secret — the secret tool',
        ),
        assistant('Calling tool version with arguments: {"value":"hello"}'),
        user('Result of version:\n{"v":"[redacted].9.[redacted]"}'),
        assistant('Calling tool major with arguments: {"value":"[redacted]"}'),
        user('Result of major:\n{"value":"[redacted]"}'),
        assistant("Skipped step 'none': when not(present(fromStep('version'))) is false."),
        assistant('Calling tool maybe with arguments: {"value":"9"}'),
        user("Step 'maybe' failed: tool maybe threw: maybe not. It is optional, so the workflow goes on without it."),
        assistant('Calling tool secret with arguments: {"value":"[redacted]"}'),
        user('Result of secret:\n{"value":"[redacted]"}'),
        assistant('Calling tool secret with arguments: {"value":"[redacted]"}'),
        user('Result of secret:\n{"value":"[redacted]"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'version', status: 'completed' },
          { name: 'major', status: 'completed' },
          { name: 'none', status: 'skipped', reason: "when not(present(fromStep('version'))) is false" },
          { name: 'maybe', status: 'failed', reason: 'tool maybe threw: maybe not' },
          {
            name: 'secret',
            status: 'completed',
            iterations: { count: 3, completed: 2, skipped: 1, failed: 0, cancelled: 0, failures: [] },
          },
        ],
      },
      calls: ['version {"value":"hello"}', 'major {"value":"2"}', 'maybe {"value":"9"}', 'secret {"value":"2"}', 'secret {"value":"1"}'],
      events: [
        { phase: 'start', workflow: 'conditions', step: 'version', index: 0, total: 5 },
        { phase: 'end', workflow: 'conditions', step: 'version', index: 0, total: 5, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'conditions', step: 'major', index: 1, total: 5 },
        { phase: 'end', workflow: 'conditions', step: 'major', index: 1, total: 5, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'conditions', step: 'none', index: 2, total: 5 },
        {
          phase: 'end',
          workflow: 'conditions',
          step: 'none',
          index: 2,
          total: 5,
          status: 'skipped',
          durationMs: 0,
          reason: "when not(present(fromStep('version'))) is false",
        },
        { phase: 'start', workflow: 'conditions', step: 'maybe', index: 3, total: 5 },
        {
          phase: 'end',
          workflow: 'conditions',
          step: 'maybe',
          index: 3,
          total: 5,
          status: 'failed',
          durationMs: 0,
          reason: 'tool maybe threw: maybe not',
        },
        { phase: 'start', workflow: 'conditions', step: 'secret', index: 4, total: 5 },
        { phase: 'start', workflow: 'conditions', step: 'secret', index: 4, total: 5, iteration: { index: 0, count: 3 } },
        {
          phase: 'end',
          workflow: 'conditions',
          step: 'secret',
          index: 4,
          total: 5,
          iteration: { index: 0, count: 3 },
          status: 'completed',
          durationMs: 0,
        },
        { phase: 'start', workflow: 'conditions', step: 'secret', index: 4, total: 5, iteration: { index: 1, count: 3 } },
        {
          phase: 'end',
          workflow: 'conditions',
          step: 'secret',
          index: 4,
          total: 5,
          iteration: { index: 1, count: 3 },
          status: 'skipped',
          durationMs: 0,
          reason: 'when not(equals(item(), "9")) is false',
        },
        { phase: 'start', workflow: 'conditions', step: 'secret', index: 4, total: 5, iteration: { index: 2, count: 3 } },
        {
          phase: 'end',
          workflow: 'conditions',
          step: 'secret',
          index: 4,
          total: 5,
          iteration: { index: 2, count: 3 },
          status: 'completed',
          durationMs: 0,
        },
        { phase: 'end', workflow: 'conditions', step: 'secret', index: 4, total: 5, status: 'completed', durationMs: 0 },
      ],
      progress: [
        { progress: 0.5, total: 5, message: 'Started step 1 of 5: version' },
        { progress: 1, total: 5, message: 'Finished step 1 of 5: version' },
        { progress: 1.5, total: 5, message: 'Started step 2 of 5: major' },
        { progress: 2, total: 5, message: 'Finished step 2 of 5: major' },
        { progress: 2.5, total: 5, message: 'Started step 3 of 5: none' },
        { progress: 3, total: 5, message: 'Finished step 3 of 5: none' },
        { progress: 3.5, total: 5, message: 'Started step 4 of 5: maybe' },
        { progress: 4, total: 5, message: 'Finished step 4 of 5: maybe' },
        { progress: 4.5, total: 5, message: 'Started step 5 of 5: secret' },
        { progress: 5, total: 7, message: 'Finished item 1 of 3 of step 5 of 5: secret' },
        { progress: 6, total: 7, message: 'Finished item [redacted] of 3 of step 5 of 5: secret' },
        { progress: 7, total: 7, message: 'Finished item 3 of 3 of step 5 of 5: secret' },
      ],
    },
  ],
  [
    'a false when, and a transform that throws',
    Conditions,
    {
      tools: { version: async () => text('{"v":1}'), major: echo, none: echo, maybe: echo, secret: echo },
    },
    {
      messages: [
        user('Run the conditions workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. version: call tool version — the version tool\n2. major: call tool major — the major tool\n3. none: call tool none — the none tool\n4. maybe: call tool maybe — the maybe tool\n5. secret: call tool secret — the secret tool',
        ),
        assistant('Calling tool version with arguments: {"value":"hello"}'),
        user('Result of version:\n{"v":1}'),
        user("Step 'version' failed: its transform threw: value.v.split is not a function. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'version', status: 'failed' },
          { name: 'major', status: 'skipped' },
          { name: 'none', status: 'skipped' },
          { name: 'maybe', status: 'skipped' },
          { name: 'secret', status: 'skipped' },
        ],
        stoppedAt: 'version',
        reason: 'its transform threw: value.v.split is not a function',
      },
      calls: ['version {"value":"hello"}'],
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
    {
      messages: [
        user('Run the outer workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. flaky: call tool flaky — the flaky tool\n2. inner: call tool inner — the inner tool\n3. after: call tool after — the after tool',
        ),
        assistant('Calling tool flaky with arguments: {"value":"hello"}'),
        user('Result of flaky:\n{"value":"hello"}'),
        assistant("Running workflow 'inner-workflow': its steps follow, as its result."),
        assistant('Calling tool inner with arguments: {"value":"hello"}'),
        user('Result of inner:\ninner completed'),
        assistant("Workflow 'inner-workflow' completed."),
        assistant('Calling tool after with arguments: {"value":"completed"}'),
        user('Result of after:\n{"value":"completed"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'flaky', status: 'completed' },
          { name: 'inner', status: 'completed' },
          { name: 'after', status: 'completed' },
        ],
      },
      calls: [
        'flaky {"value":"hello"}',
        'flaky {"value":"hello"}',
        'flaky {"value":"hello"}',
        'inner {"value":"hello"}',
        'after {"value":"completed"}',
      ],
      events: [
        { phase: 'start', workflow: 'outer', step: 'flaky', index: 0, total: 3 },
        { phase: 'end', workflow: 'outer', step: 'flaky', index: 0, total: 3, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'outer', step: 'inner', index: 1, total: 3 },
        { phase: 'end', workflow: 'outer', step: 'inner', index: 1, total: 3, status: 'completed', durationMs: 0 },
        { phase: 'start', workflow: 'outer', step: 'after', index: 2, total: 3 },
        { phase: 'end', workflow: 'outer', step: 'after', index: 2, total: 3, status: 'completed', durationMs: 0 },
      ],
      progress: [
        { progress: 0.5, total: 3, message: 'Started step 1 of 3: flaky' },
        { progress: 1, total: 3, message: 'Finished step 1 of 3: flaky' },
        { progress: 1.5, total: 3, message: 'Started step 2 of 3: inner' },
        { progress: 2, total: 3, message: 'Finished step 2 of 3: inner' },
        { progress: 2.5, total: 3, message: 'Started step 3 of 3: after' },
        { progress: 3, total: 3, message: 'Finished step 3 of 3: after' },
      ],
    },
  ],
  [
    'a retry that runs out',
    Outer,
    {
      tools: { flaky: async () => ({ ...text('busy'), isError: true }), inner: echo, after: echo },
    },
    {
      messages: [
        user('Run the outer workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. flaky: call tool flaky — the flaky tool\n2. inner: call tool inner — the inner tool\n3. after: call tool after — the after tool',
        ),
        assistant('Calling tool flaky with arguments: {"value":"hello"}'),
        user("Step 'flaky' failed: tool flaky returned an error: busy. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'flaky', status: 'failed' },
          { name: 'inner', status: 'skipped' },
          { name: 'after', status: 'skipped' },
        ],
        stoppedAt: 'flaky',
        reason: 'tool flaky returned an error: busy',
      },
      calls: ['flaky {"value":"hello"}', 'flaky {"value":"hello"}', 'flaky {"value":"hello"}'],
    },
  ],
  [
    'a sub-workflow the user declined',
    Outer,
    {
      tools: { flaky, inner: innerRun('cancelled', 'declined by the user: "Archive it?"'), after: echo },
      workflows: { inner: 'inner-workflow' },
    },
    {
      messages: [
        user('Run the outer workflow.\nArguments:\n- input: hello'),
        assistant(
          'Plan:\n1. flaky: call tool flaky — the flaky tool\n2. inner: call tool inner — the inner tool\n3. after: call tool after — the after tool',
        ),
        assistant('Calling tool flaky with arguments: {"value":"hello"}'),
        user('Result of flaky:\n{"value":"hello"}'),
        assistant("Running workflow 'inner-workflow': its steps follow, as its result."),
        assistant('Calling tool inner with arguments: {"value":"hello"}'),
        assistant("Workflow 'inner-workflow' was cancelled."),
        user(
          "The workflow stopped: declined by the user: \"Archive it?\". The user's answer is final. Do not do the remaining steps ('inner', 'after') on the user's behalf: do not call their tools or look for the answer another way. Tell the user the workflow was cancelled; run it again only if the user asks.",
        ),
      ],
      meta: {
        status: 'cancelled',
        steps: [
          { name: 'flaky', status: 'completed' },
          { name: 'inner', status: 'cancelled' },
          { name: 'after', status: 'skipped' },
        ],
        stoppedAt: 'inner',
        reason: 'declined by the user: "Archive it?"',
      },
      calls: ['flaky {"value":"hello"}', 'flaky {"value":"hello"}', 'flaky {"value":"hello"}', 'inner {"value":"hello"}'],
    },
  ],
  [
    'a plan holding the last two of three steps runs each by its own index',
    Paths,
    {
      tools: { fetch: echo, use: echo, last: async (args) => text(`last ${JSON.stringify(args)}`) },
      from: { position: 1, bindings: { fetched: { a: { b: 'b' }, list: [0, 1] } } },
    },
    {
      messages: [
        assistant('Calling tool use with arguments: {"nested":"b","indexed":1,"whole":{"a":{"b":"b"},"list":[0,1]},"fixed":{"n":1}}'),
        user('Result of use:\n{"nested":"b","indexed":1,"whole":{"a":{"b":"b"},"list":[0,1]},"fixed":{"n":1}}'),
        assistant('Calling tool last with arguments: {"value":"b"}'),
        user('Result of last:\nlast {"value":"b"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'used', status: 'completed' },
          { name: 'last', status: 'completed' },
        ],
      },
      calls: ['use {"nested":"b","indexed":1,"whole":{"a":{"b":"b"},"list":[0,1]},"fixed":{"n":1}}', 'last {"value":"b"}'],
    },
  ],
  [
    'a tool step that embeds a resource whose URI a binding fills, after a resource step',
    Uris,
    {
      tools: { use: echo },
      resources: { 'doc://hello': '{"id":"d-1","v":"value"}', 'doc://d-1': '{"more":true}' },
    },
    {
      messages: [
        user('Run the uris workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. doc: read resource doc://{name}\n2. used: call tool use — the use tool'),
        assistant('Reading hello.'),
        assistant('Reading resource doc://hello'),
        embedded('doc://hello', '{"id":"d-1","v":"value"}'),
        assistant('Using hello.'),
        embedded('doc://d-1', '{"more":true}'),
        assistant('Calling tool use with arguments: {"value":"value"}'),
        user('Result of use:\n{"value":"value"}'),
      ],
      meta: {
        status: 'completed',
        steps: [
          { name: 'doc', status: 'completed' },
          { name: 'used', status: 'completed' },
        ],
      },
      calls: ['doc://hello', 'doc://d-1', 'use {"value":"value"}'],
    },
  ],
  [
    'an embedded resource whose URI variable has no value',
    Uris,
    {
      tools: { use: echo },
      resources: { 'doc://hello': '{"v":"value"}' },
    },
    {
      messages: [
        user('Run the uris workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. doc: read resource doc://{name}\n2. used: call tool use — the use tool'),
        assistant('Reading hello.'),
        assistant('Reading resource doc://hello'),
        embedded('doc://hello', '{"v":"value"}'),
        assistant('Using hello.'),
        assistant(
          "I cannot complete step 'used' on the server: {id} has no value: field 'id' is not in binding 'doc': the output is an object and has no 'id'.\nThe remaining steps are yours to complete, in order:\n2. used: call tool use — the use tool\n   Known arguments: {\"value\":\"value\"}\nUse the guidance and resources above; call each tool yourself once its arguments are known.",
        ),
      ],
      meta: {
        status: 'handoff',
        steps: [
          { name: 'doc', status: 'completed' },
          { name: 'used', status: 'handoff' },
        ],
        stoppedAt: 'used',
        reason: "{id} has no value: field 'id' is not in binding 'doc': the output is an object and has no 'id'",
      },
      calls: ['doc://hello'],
    },
  ],
  [
    'an embedded resource that cannot be read',
    Uris,
    {
      tools: { use: echo },
      resources: { 'doc://hello': '{"id":"missing","v":"value"}' },
    },
    {
      messages: [
        user('Run the uris workflow.\nArguments:\n- input: hello'),
        assistant('Plan:\n1. doc: read resource doc://{name}\n2. used: call tool use — the use tool'),
        assistant('Reading hello.'),
        assistant('Reading resource doc://hello'),
        embedded('doc://hello', '{"id":"missing","v":"value"}'),
        assistant('Using hello.'),
        user("Step 'used' failed: could not read resource doc://missing: no such resource. The workflow stopped here."),
      ],
      meta: {
        status: 'failed',
        steps: [
          { name: 'doc', status: 'completed' },
          { name: 'used', status: 'failed' },
        ],
        stoppedAt: 'used',
        reason: 'could not read resource doc://missing: no such resource',
      },
      calls: ['doc://hello', 'doc://missing'],
    },
  ],
];

describe('the engine gives exactly the expected output', () => {
  test.each(SCENARIOS)('%s', async (_name, workflow, scenario, expected) => {
    const output = await runScenario(plan(workflow), scenario);
    const wanted: Output = {
      result: { messages: expected.messages, _meta: { 'mcpflow/execution': expected.meta } },
      calls: expected.calls,
      events: expected.events ?? [],
      progress: expected.progress ?? [],
    };
    // The values first (a readable diff), then the bytes as sent: key order and all.
    expect(output).toEqual(wanted);
    expect(JSON.stringify(output)).toBe(JSON.stringify(wanted));
  });
});
