import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { CompiledStep, CompiledWorkflow } from '../compile/compile-workflow';
import type { ExecutionScope } from '../compile/resolve-source';
import { callTool, checkToolResult, invokeTool, validateToolInput } from '../invoke/call-tool';
import { readResource } from '../invoke/read-resource';
import { resourceValue, toolResultText, toolResultValue } from '../invoke/step-values';
import { toolInputs } from '../invoke/tool-inputs';
import type { ServerRegistry } from '../registry/server-registry';
import type { RequestExtra } from '../request-extra';
import { expandUri } from '../uri/expand-uri';
import { errorMessage, resourceReadText, toolCallText, toolResultMessage } from './messages';
import type { Redactor } from './redactor';
import { StepCancelledError, StepTimeoutError, runTry, withRetry } from './step-policy';
import type { Trace } from './trace';

/** What one request's steps share. */
export interface StepContext {
  readonly workflow: CompiledWorkflow;
  readonly registry: ServerRegistry;
  readonly scope: ExecutionScope;
  readonly trace: Trace;
  readonly redactor: Redactor;
  readonly extra: RequestExtra;
}

/** How a step ended; only a completed step has a value. */
export type StepOutcome =
  | { readonly status: 'completed'; readonly value: unknown }
  | { readonly status: 'handoff' | 'failed' | 'cancelled'; readonly reason: string };

/**
 * Runs one step: guidance, embedded resources, then its tool call or resource read. Not `async`
 * itself: a plain tool step goes straight to the tool, without another promise on the way.
 */
export function runStep(step: CompiledStep, context: StepContext): Promise<StepOutcome> {
  const { trace, scope } = context;
  if (step.guidance) trace.assistant(step.guidance(scope.args));
  if (step.model.tool !== undefined && step.resources.length === 0 && step.templateBindings.length === 0) {
    return runToolStep(step, step.model.tool, context);
  }
  return runWithUris(step, context);
}

async function runWithUris(step: CompiledStep, context: StepContext): Promise<StepOutcome> {
  const variables = resolveVariables(step, context.scope);
  for (const uri of step.resources) {
    if (uri.variables.some((name) => !(name in variables.values))) continue;
    const expanded = expandUri(uri, variables.values);
    if (!expanded.ok) return { status: 'handoff', reason: expanded.reason };
    const failure = await embedResource(step, expanded.uri, context);
    if (failure) return failure;
  }
  if (variables.problems.length) return { status: 'handoff', reason: variables.problems.join('; ') };

  return step.model.tool !== undefined ? runToolStep(step, step.model.tool, context) : runResourceStep(step, variables.values, context);
}

function resolveVariables(step: CompiledStep, scope: ExecutionScope): { values: Record<string, string>; problems: string[] } {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const binding of step.templateBindings) {
    const resolved = binding.resolve(scope);
    if (!resolved.ok) {
      problems.push(`{${binding.variable}} has no value: ${resolved.reason}`);
    } else if (typeof resolved.value === 'string') {
      values[binding.variable] = resolved.value;
    } else if (typeof resolved.value === 'number' || typeof resolved.value === 'boolean') {
      values[binding.variable] = String(resolved.value);
    } else {
      const kind = resolved.value === null ? 'null' : Array.isArray(resolved.value) ? 'an array' : `an ${typeof resolved.value}`;
      problems.push(`{${binding.variable}} would be ${kind}, and a URI variable takes a string, number or boolean`);
    }
  }
  return { values, problems };
}

async function embedResource(step: CompiledStep, uri: string, context: StepContext): Promise<StepOutcome | undefined> {
  try {
    const result = await runTry(context.extra.signal, step.model.timeoutMs, (signal) =>
      readResource(context.registry, uri, withSignal(context.extra, signal)),
    );
    context.trace.embed(result);
    return undefined;
  } catch (error) {
    return failure(error, `could not read resource ${uri}`);
  }
}

async function runToolStep(step: CompiledStep, name: string, context: StepContext): Promise<StepOutcome> {
  const { registry, scope, trace, extra } = context;
  const tool = registry.tools.get(name);
  if (!tool) return { status: 'failed', reason: `tool ${name} is not registered on this server` };
  if (!tool.enabled) return { status: 'failed', reason: `tool ${name} is disabled` };

  const args: Record<string, unknown> = {};
  let unresolved: Map<string, string> | undefined;
  for (const argument of step.args) {
    const resolved = argument.resolve(scope);
    if (!resolved.ok) {
      (unresolved ??= new Map()).set(argument.name, resolved.reason);
      continue;
    }
    args[argument.name] = resolved.value;
    if (argument.sensitive) context.redactor.add(resolved.value);
  }
  const inputs = toolInputs(tool);
  if (inputs.some((input) => input.required && !(input.name in args))) {
    const missing = inputs.filter((input) => input.required && !(input.name in args));
    const reasons = unresolved ?? new Map<string, string>();
    const unmapped = missing.filter((input) => !reasons.has(input.name)).map((input) => `'${input.name}'`);
    const why = missing.filter((input) => reasons.has(input.name)).map((input) => `'${input.name}' (${reasons.get(input.name)})`);
    if (unmapped.length) why.push(`${unmapped.join(', ')} (no argument of the step provides ${unmapped.length > 1 ? 'them' : 'it'})`);
    return { status: 'handoff', reason: `tool ${name} needs ${why.join(', ')}` };
  }
  const validated = validateToolInput(tool, name, args);
  const input = validated instanceof Promise ? await validated : validated;
  if (!input.ok) return { status: 'handoff', reason: input.message };

  trace.assistant(toolCallText(name, args));
  let result: CallToolResult;
  try {
    if (step.model.timeoutMs === undefined && step.model.retry === undefined) {
      // The common case, kept to a single await: no timer, no retry loop.
      const raw = invokeTool(tool, name, input.args, extra);
      // Any thenable, not only native promises: a handler may return one from another library.
      const checked = checkToolResult(tool, name, typeof (raw as PromiseLike<unknown> | undefined)?.then === 'function' ? await raw : raw);
      result = checked instanceof Promise ? await checked : checked;
      if (extra.signal.aborted) throw new StepCancelledError();
    } else {
      result = await withRetry(
        step.model.retry,
        extra.signal,
        () => runTry(extra.signal, step.model.timeoutMs, (signal) => callTool(tool, name, input.args, withSignal(extra, signal))),
        (outcome) => outcome.isError === true,
      );
    }
  } catch (error) {
    return failure(error, `tool ${name}`, ' threw: ');
  }
  const text = toolResultText(result);
  if (result.isError) return { status: 'failed', reason: `tool ${name} returned an error: ${text || '(no message)'}` };
  trace.user(toolResultMessage(name, result, text));
  for (const block of result.content) if (block.type !== 'text') trace.userContent(block);
  return { status: 'completed', value: toolResultValue(result, text) };
}

async function runResourceStep(step: CompiledStep, values: Record<string, string>, context: StepContext): Promise<StepOutcome> {
  const expanded = step.resource ? expandUri(step.resource, values) : { ok: false as const, reason: 'the step names no resource' };
  if (!expanded.ok) return { status: 'handoff', reason: expanded.reason };
  context.trace.assistant(resourceReadText(expanded.uri));
  try {
    const result = await withRetry(
      step.model.retry,
      context.extra.signal,
      () => runTry(context.extra.signal, step.model.timeoutMs, (signal) => readResource(context.registry, expanded.uri, withSignal(context.extra, signal))),
      () => false,
    );
    context.trace.embed(result);
    return { status: 'completed', value: resourceValue(result) };
  } catch (error) {
    return failure(error, `could not read resource ${expanded.uri}`);
  }
}

/** The request's extra with another signal; the same object when the signal is the request's own. */
function withSignal(extra: RequestExtra, signal: AbortSignal): RequestExtra {
  return signal === extra.signal ? extra : { ...extra, signal };
}

function failure(error: unknown, subject: string, verb = ': '): StepOutcome {
  if (error instanceof StepCancelledError) return { status: 'cancelled', reason: `the request was cancelled during ${subject}` };
  if (error instanceof StepTimeoutError) return { status: 'failed', reason: `${subject} timed out after ${error.timeoutMs} ms` };
  return { status: 'failed', reason: `${subject}${verb}${errorMessage(error)}` };
}
