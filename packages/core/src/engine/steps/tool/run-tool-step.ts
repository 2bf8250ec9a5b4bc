import type { RetryPolicy } from '../../../model';
import type { ToolAction } from '../../../model/actions/tool-action';
import type { SignalSource } from '../../cancellation/signal-source';
import type { ToolResult } from '../../content';
import type { Host, HostTool, ToolInput, ValidatedInput } from '../../host';
import type { PlannedStep } from '../../plan/plan-workflow';
import { checkedToolResult } from '../../results/checked-results';
import { stepTimeoutMs, type StepContext } from '../step-context';
import { failedOutcome, type StepOutcome } from '../step-outcome';
import { StepCancelledError, runTryLazily, withRetry } from '../step-policy';
import { TimedTry, type TryWork } from '../timed-try';
import { toolResultText, toolResultValue } from '../step-values';
import { isPromiseLike } from '../../../util/is-promise-like';
import { errorMessage } from '../../text/error-message';
import { argumentsJson, shownArguments } from './shown-arguments';
import { isDeclinedReason } from '../../asking/ask-messages';
import { subWorkflowEndText, subWorkflowStartText, toolCallText, toolResultMessage } from './tool-messages';
import { ownRecord } from '../../../util/own-record';

/**
 * Calls the step's tool in process: its arguments resolved, validated by the tool's input schema,
 * the result checked as `tools/call` checks it, under the step's timeout and retry. Not `async`
 * itself: the tool's try settles straight to the step's outcome, so a plain step costs one promise
 * beyond the tool's own.
 */
export function runToolStep(step: PlannedStep, action: ToolAction, context: StepContext): Promise<StepOutcome> {
  const { host, scope } = context;
  const name = action.tool;
  const tool = host.findTool(name);
  if (!tool) return Promise.resolve(valueFree(`tool ${name} is not registered on this server`));
  if (!tool.enabled) return Promise.resolve(valueFree(`tool ${name} is disabled`));

  // No prototype: an argument may be named like an Object.prototype member.
  const args = ownRecord<unknown>();
  let unresolved: Map<string, string> | undefined;
  for (const argument of step.args) {
    const resolved = argument.resolve(scope);
    if (!resolved.ok) {
      (unresolved ??= new Map()).set(argument.name, resolved.reason);
      continue;
    }
    args[argument.name] = resolved.value;
    if (argument.sensitive) {
      // An element of a loop cannot be read again on resume: the state keeps it as learned.
      if (argument.source.kind === 'item') context.redactor.learn(resolved.value, 'server');
      else context.redactor.add(resolved.value, argument.fromClient ? 'client' : 'server');
    }
  }
  const inputs = host.toolInputs(tool);
  if (missesRequiredInput(inputs, args)) return Promise.resolve(missingInputs(name, inputs, args, unresolved));
  const validated = host.validateToolInput(tool, name, args);
  const call = new ToolCall(step, context, tool, name);
  return isPromiseLike(validated) ? Promise.resolve(validated).then((input) => call.start(input, args)) : call.start(validated, args);
}

/** A failure whose reason names no value, so telemetry shows it as it is. */
function valueFree(reason: string): StepOutcome {
  return { status: 'failed', reason, failure: reason };
}

function missesRequiredInput(inputs: readonly ToolInput[], args: Record<string, unknown>): boolean {
  for (const input of inputs) if (input.required && !Object.hasOwn(args, input.name)) return true;
  return false;
}

function missingInputs(
  name: string,
  inputs: readonly ToolInput[],
  args: Record<string, unknown>,
  unresolved: Map<string, string> | undefined,
): StepOutcome {
  const missing = inputs.filter((input) => input.required && !Object.hasOwn(args, input.name));
  const reasons = unresolved ?? new Map<string, string>();
  const unmapped = missing.filter((input) => !reasons.has(input.name)).map((input) => `'${input.name}'`);
  const why = missing.filter((input) => reasons.has(input.name)).map((input) => `'${input.name}' (${reasons.get(input.name)})`);
  if (unmapped.length) why.push(`${unmapped.join(', ')} (no argument of the step provides ${unmapped.length > 1 ? 'them' : 'it'})`);
  return { status: 'handoff', reason: `tool ${name} needs ${why.join(', ')}` };
}

/** One call of a step's tool, once its input is valid: tried as the step's policy says, valued as its result says. */
class ToolCall implements TryWork<unknown, StepOutcome> {
  private args: unknown;
  /** The workflow the tool runs, when it is one served as a tool: its part of the trace is marked. */
  private readonly workflow: string | undefined;

  constructor(
    private readonly step: PlannedStep,
    private readonly context: StepContext,
    private readonly tool: HostTool,
    private readonly name: string,
  ) {
    this.workflow = context.host.workflowOf?.(tool);
  }

  start(input: ValidatedInput, given: Record<string, unknown>): Promise<StepOutcome> {
    if (!input.ok) return Promise.resolve({ status: 'handoff', reason: input.message });
    this.args = input.args;
    const { step, context } = this;
    if (this.workflow !== undefined) context.trace.assistant(subWorkflowStartText(this.workflow));
    context.trace.assistant(toolCallText(this.name, argumentsJson(step, shownArguments(step, given), context.redactor)));
    const timeoutMs = stepTimeoutMs(step, context);
    if (step.model.retry !== undefined) return this.withRetry(step.model.retry, timeoutMs);
    // The default: one try under the step timeout, its signal made only if the tool reads it.
    // Without a timeout, the tool gets the request's own context.
    const host = context.host;
    const ended =
      timeoutMs === undefined ? new UntimedTry(host).start(this) : new TimedTry<unknown, StepOutcome>(host.signal, timeoutMs).start(this);
    return isPromiseLike(ended) ? ended : Promise.resolve(ended);
  }

  run(signal: SignalSource): unknown {
    const { host, runId, redactor } = this.context;
    return host.invokeTool(this.tool, this.name, this.args, signal, { id: runId, step: this.step.model.name }, redactor.secrets);
  }

  fulfilled(value: unknown): StepOutcome | PromiseLike<StepOutcome> {
    const checked = checkedToolResult(this.context.host, this.tool, this.name, value);
    return isPromiseLike(checked) ? checked.then((result) => this.valued(result)) : this.valued(checked);
  }

  rejected(error: unknown): StepOutcome {
    if (this.workflow !== undefined) this.context.trace.assistant(subWorkflowEndText(this.workflow, 'failed'));
    // A tool that throws because its signal aborted was cancelled (by the client, or with its parallel group).
    return failedOutcome(this.context.host.signal.aborted ? new StepCancelledError() : error, `tool ${this.name}`, ' threw: ');
  }

  private async withRetry(retry: RetryPolicy, timeoutMs: number | undefined): Promise<StepOutcome> {
    const { host } = this.context;
    let result: ToolResult;
    try {
      result = await withRetry(
        retry,
        host.signal,
        () => runTryLazily(host, timeoutMs, (signal) => checked(host, this.tool, this.name, this.run(signal))),
        (outcome) => outcome.isError === true,
      );
    } catch (error) {
      return this.rejected(error);
    }
    return this.valued(result);
  }

  /** A checked result's outcome: failed when the tool says so, else its messages and its value. */
  private valued(result: ToolResult): StepOutcome {
    const { trace, host } = this.context;
    if (host.signal.aborted) return this.rejected(new StepCancelledError());
    const text = toolResultText(result);
    const ended = this.workflow === undefined ? undefined : subWorkflowEndText(this.workflow, runStatus(result));
    // A user's no inside a sub-workflow is final for the outer run too: it ends cancelled, for the same reason.
    const declined = this.workflow === undefined ? undefined : declinedReasonOf(result);
    if (declined !== undefined) {
      trace.assistant(ended!);
      return { status: 'cancelled', reason: declined };
    }
    if (result.isError) {
      if (ended) trace.assistant(ended);
      return {
        status: 'failed',
        reason: `tool ${this.name} returned an error: ${text || '(no message)'}`,
        errorType: 'tool_error',
        failure: `tool ${this.name} returned an error`,
      };
    }
    let value: unknown;
    try {
      value = toolResultValue(result, text);
    } catch (error) {
      return {
        status: 'failed',
        reason: `tool ${this.name} returned text that is ${errorMessage(error)}`,
        errorType: 'malformed_result',
        failure: `tool ${this.name} returned a malformed result`,
      };
    }
    trace.user(toolResultMessage(this.name, result, text));
    for (const block of result.content) if (block.type !== 'text') trace.userContent(block);
    if (ended) trace.assistant(ended);
    return { status: 'completed', value };
  }
}

/** A sub-workflow's stop reason when the user declined one of its questions (its result's `_meta["mcpflow/execution"]`). */
function declinedReasonOf(result: ToolResult): string | undefined {
  const meta = (result as { _meta?: Record<string, { status?: unknown; reason?: unknown } | undefined> })._meta?.['mcpflow/execution'];
  return meta?.status === 'cancelled' && isDeclinedReason(meta.reason) ? meta.reason : undefined;
}

/** How a sub-workflow's run ended, as its tool result's `structuredContent.status` says. */
function runStatus(result: ToolResult): string {
  const status = (result.structuredContent as { status?: unknown } | undefined)?.status;
  return typeof status === 'string' ? status : result.isError ? 'failed' : 'completed';
}

/** A try without a timeout: the request's own signal, no race; cancelled if the request was by the time it ends. */
class UntimedTry {
  constructor(private readonly host: Host) {}

  start(work: ToolCall): StepOutcome | Promise<StepOutcome> {
    let raw: unknown;
    try {
      if (this.host.signal.aborted) throw new StepCancelledError();
      raw = work.run(this.host);
      if (!isPromiseLike(raw)) return settle(work.fulfilled(raw), work);
    } catch (error) {
      return work.rejected(error);
    }
    return Promise.resolve(raw).then(
      (value) => settle(work.fulfilled(value), work),
      (error: unknown) => work.rejected(error),
    );
  }
}

/** An outcome that may still be a promise (an asynchronous result check), with its rejection mapped. */
function settle(outcome: StepOutcome | PromiseLike<StepOutcome>, work: ToolCall): StepOutcome | Promise<StepOutcome> {
  return isPromiseLike(outcome) ? Promise.resolve(outcome).then(undefined, (error: unknown) => work.rejected(error)) : outcome;
}

/** A tool's return checked as `tools/call` checks it, for a try under a retry. */
function checked(host: Host, tool: HostTool, name: string, raw: unknown): ToolResult | PromiseLike<ToolResult> {
  return isPromiseLike(raw)
    ? Promise.resolve(raw).then((value) => checkedToolResult(host, tool, name, value))
    : checkedToolResult(host, tool, name, raw);
}
