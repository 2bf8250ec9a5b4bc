import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, TemplateBinding, Workflow, field, promptArg } from '@mcpflow/decorators';
import { readWorkflowModel } from '@mcpflow/core';
import { UriTemplate } from '@modelcontextprotocol/server';
import {
  REDACTED,
  advanceExecution,
  createExecutionState,
  executeWorkflow,
  executionResult,
  planWorkflow,
  stepContext,
  type ExecutionState,
  type Host,
  type HostTool,
  type ResourceResult,
  type ToolResult,
} from '../src/engine';
import { Redactor } from '../src/engine/redaction/redactor';
import { runSecrets } from '../src/engine/redaction/run-secrets';
import { StepCancelledError, StepTimeoutError, runTry, withRetry } from '../src/engine/steps/step-policy';
import { expandUri, planUri } from '../src/engine/uri/expand-uri';

/**
 * The engine without an SDK: a Host over plain functions. (The adapters' Hosts are tested through
 * real clients in tests/.)
 */
interface PlainTool extends HostTool {
  readonly run: (args: Record<string, unknown>) => Promise<ToolResult>;
}

function plainHost(
  tools: Record<string, PlainTool['run']>,
  resources: Record<string, string> = {},
  signal = new AbortController().signal,
): Host<PlainTool> & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    signal,
    findTool: (name) => (tools[name] ? { enabled: true, description: `the ${name} tool`, run: tools[name] } : undefined),
    toolInputs: () => [],
    validateToolInput: (_tool, _name, args) => ({ ok: true, args }),
    invokeTool: (tool, name, args) => {
      calls.push(name);
      return tool.run(args as Record<string, unknown>);
    },
    checkToolResult: (_tool, _name, value) => value as ToolResult,
    readResource: async (uri): Promise<ResourceResult> => {
      calls.push(uri);
      if (!(uri in resources)) throw new Error('no such resource');
      return { contents: [{ uri, mimeType: 'application/json', text: resources[uri] }] };
    },
  };
}

@Workflow({ name: 'trip', arguments: { city: z.string(), token: z.string() }, sensitiveArguments: ['token'] })
class Trip {
  @Step({ tool: 'geocode', args: { city: promptArg('city'), token: promptArg('token') } })
  @Bind('place')
  place!: { id: string };

  @Step({ resource: 'weather://{id}' })
  @TemplateBinding('id', field('place', 'id'))
  @Bind('weather')
  weather!: { sky: string };

  @Step({ tool: 'advise', args: { sky: field('weather', 'sky') } })
  advice!: unknown;
}

const plan = planWorkflow(readWorkflowModel(Trip)!, (template) => new UriTemplate(template));
const tools = {
  geocode: async (args: Record<string, unknown>) => ({
    content: [{ type: 'text' as const, text: `{"id":"p-1","echo":"${String(args.token)}"}` }],
  }),
  advise: async (args: Record<string, unknown>) => ({
    content: [{ type: 'text' as const, text: `bring ${args.sky === 'rain' ? 'an umbrella' : 'sunglasses'}` }],
  }),
};
const resources = { 'weather://p-1': '{"sky":"rain"}' };
const args = { city: 'Oslo', token: 'tok-123' };

describe('the executor advances an execution state', () => {
  test('a run completes through the host: tool, resource, tool, with the sensitive argument redacted', async () => {
    const host = plainHost(tools, resources);
    const result = await executeWorkflow(plan, args, host, {});
    expect(host.calls).toEqual(['geocode', 'weather://p-1', 'advise']);
    expect(result.messages.at(-1)).toEqual({ role: 'user', content: { type: 'text', text: 'Result of advise:\nbring an umbrella' } });
    expect(JSON.stringify(result)).not.toContain('tok-123');
    expect(JSON.stringify(result)).toContain(REDACTED);
  });

  test('the state is a plain value: stopped after a step, copied through JSON, it goes on to the same result', async () => {
    const whole = await executeWorkflow(plan, args, plainHost(tools, resources), {});

    const first = plainHost(tools, resources);
    const state = createExecutionState(plan, args);
    const context = stepContext(plan, state, first);
    context.trace.user('opening');
    // Run only the first step, as a run that pauses there would.
    const oneStep = { ...plan, steps: plan.steps.slice(0, 1), groups: plan.groups.slice(0, 1) };
    await advanceExecution(state, { ...context, plan: oneStep }, {});
    expect(state.position).toBe(1);
    expect(state.statuses).toEqual(['completed', 'skipped', 'skipped']);

    const copied = JSON.parse(JSON.stringify(state)) as ExecutionState;
    Object.setPrototypeOf(copied.bindings, null);
    const second = plainHost(tools, resources);
    const resumed = stepContext(plan, copied, second);
    await advanceExecution(copied, resumed, {});
    const result = executionResult(copied, resumed);
    expect(second.calls).toEqual(['weather://p-1', 'advise']);
    expect(result.messages.slice(1)).toEqual(whole.messages.slice(2));
    expect(result._meta).toEqual(whole._meta);
    expect(JSON.stringify(result)).not.toContain('tok-123');
  });

  test("a thenable that is not a native promise is awaited: a handler's and the host's check's", async () => {
    const thenable = <T>(value: T): PromiseLike<T> => ({ then: (resolve) => thenable(resolve ? resolve(value) : value) }) as PromiseLike<T>;
    const host = plainHost(tools, resources);
    host.invokeTool = (_tool, name) => {
      host.calls.push(name);
      return thenable({ content: [{ type: 'text', text: `{"id":"p-1","sky":"rain"}` }] });
    };
    host.checkToolResult = (_tool, _name, value) => thenable(value as ToolResult);
    const result = await executeWorkflow(plan, args, host, {});
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: { type: 'text', text: 'Result of advise:\n{"id":"p-1","sky":"rain"}' },
    });
  });

  test('a cancelled request stops before the next step, and the state says where', async () => {
    const controller = new AbortController();
    const host = plainHost(
      { ...tools, geocode: async (input) => (controller.abort(), tools.geocode(input)) },
      resources,
      controller.signal,
    );
    const result = await executeWorkflow(plan, args, host, {});
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'cancelled', stoppedAt: 'place' });
    expect(host.calls).toEqual(['geocode']);
  });
});

describe('redactor', () => {
  test('replaces a secret raw and JSON-escaped, the longest first', () => {
    const redactor = new Redactor();
    redactor.add('ab"c', 'server');
    redactor.add('ab"c-longer', 'server');
    expect(redactor.redact('x ab"c-longer y {"k":"ab\\"c"}')).toBe(`x ${REDACTED} y {"k":"${REDACTED}"}`);
  });

  test("keeps its secrets in the run's secrets it is given (the execution state's)", () => {
    const secrets = runSecrets(undefined);
    new Redactor(secrets).add({ pin: 1 }, 'server');
    expect(secrets.held).toEqual(expect.arrayContaining(['{"pin":1}', '{\\"pin\\":1}']));
  });
});

describe('step policy', () => {
  test('a try past its timeout is aborted and fails with the time', async () => {
    let aborted = false;
    const hung = runTry(
      new AbortController().signal,
      20,
      (signal) => new Promise(() => signal.addEventListener('abort', () => (aborted = true))),
    );
    await expect(hung).rejects.toBeInstanceOf(StepTimeoutError);
    expect(aborted).toBe(true);
  });

  test('retries a failing result with doubling backoff, and never retries a cancellation', async () => {
    let tries = 0;
    const result = await withRetry(
      { attempts: 3, backoffMs: 1 },
      new AbortController().signal,
      async () => ++tries,
      (value) => value < 3,
    );
    expect([result, tries]).toEqual([3, 3]);
    let cancelled = 0;
    const cancelledRun = withRetry(
      { attempts: 5 },
      new AbortController().signal,
      async () => {
        cancelled += 1;
        throw new StepCancelledError();
      },
      () => false,
    );
    await expect(cancelledRun).rejects.toBeInstanceOf(StepCancelledError);
    expect(cancelled).toBe(1);
  });
});

describe('URI expansion', () => {
  const uri = planUri('files://docs/{name}', ['name'], (template) => new UriTemplate(template));

  test('encodes a value into one segment', () => {
    expect(expandUri(uri, { name: 'a/b c' })).toEqual({ ok: true, uri: 'files://docs/a%2Fb%20c', shown: 'files://docs/a%2Fb%20c' });
  });

  test('shows the URI filled with the marked values it is given, and reads the one filled with the values', () => {
    const marked = { name: '\uFDD0key a/b\uFDD1key' };
    expect(expandUri(uri, { name: 'a/b' }, marked)).toEqual({
      ok: true,
      uri: 'files://docs/a%2Fb',
      shown: 'files://docs/%EF%B7%90key%20a%2Fb%EF%B7%91key',
    });
  });

  test('refuses a dot segment, which URL parsing would collapse', () => {
    expect(expandUri(uri, { name: '..' })).toMatchObject({ ok: false });
  });
});
