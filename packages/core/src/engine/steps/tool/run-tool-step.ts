import type { ToolAction } from '../../../model/actions/tool-action';
import type { ToolResult } from '../../content';
import type { Host, HostTool } from '../../host';
import type { PlannedStep } from '../../plan/plan-workflow';
import { checkedToolResult } from '../../results/checked-results';
import { stepTimeoutMs, type StepContext } from '../step-context';
import { failedOutcome, type StepOutcome } from '../step-outcome';
import { StepCancelledError, runTry, withRetry } from '../step-policy';
import { toolResultText, toolResultValue } from '../step-values';
import { isPromiseLike } from '../../../util/is-promise-like';
import { argumentsJson, shownArguments } from './shown-arguments';
import { errorMessage } from '../../text/error-message';
import { toolCallText, toolResultMessage } from './tool-messages';

/**
 * Calls the step's tool in process: its arguments resolved, validated by the tool's input schema,
 * the result checked as `tools/call` checks it. A plain step (no timeout, no retry) awaits once.
 */
export async function runToolStep(step: PlannedStep, action: ToolAction, context: StepContext): Promise<StepOutcome> {
  const { host, scope, trace } = context;
  const name = action.tool;
  const tool = host.findTool(name);
  if (!tool) return { status: 'failed', reason: `tool ${name} is not registered on this server` };
  if (!tool.enabled) return { status: 'failed', reason: `tool ${name} is disabled` };

  // No prototype: an argument may be named like an Object.prototype member.
  const args: Record<string, unknown> = Object.create(null);
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
  if (inputs.some((input) => input.required && !Object.hasOwn(args, input.name))) {
    const missing = inputs.filter((input) => input.required && !Object.hasOwn(args, input.name));
    const reasons = unresolved ?? new Map<string, string>();
    const unmapped = missing.filter((input) => !reasons.has(input.name)).map((input) => `'${input.name}'`);
    const why = missing.filter((input) => reasons.has(input.name)).map((input) => `'${input.name}' (${reasons.get(input.name)})`);
    if (unmapped.length) why.push(`${unmapped.join(', ')} (no argument of the step provides ${unmapped.length > 1 ? 'them' : 'it'})`);
    return { status: 'handoff', reason: `tool ${name} needs ${why.join(', ')}` };
  }
  const validated = host.validateToolInput(tool, name, args);
  const input = isPromiseLike(validated) ? await validated : validated;
  if (!input.ok) return { status: 'handoff', reason: input.message };

  trace.assistant(toolCallText(name, argumentsJson(step, shownArguments(step, args), context.redactor)));
  const timeoutMs = stepTimeoutMs(step, context);
  let result: ToolResult;
  try {
    if (timeoutMs === undefined && step.model.retry === undefined) {
      // The common case, kept to a single await: no timer, no retry loop.
      const raw = host.invokeTool(tool, name, input.args, host.signal, context.runId);
      const checked = checkedToolResult(host, tool, name, isPromiseLike(raw) ? await raw : raw);
      result = isPromiseLike(checked) ? await checked : checked;
      if (host.signal.aborted) throw new StepCancelledError();
    } else {
      result = await withRetry(
        step.model.retry,
        host.signal,
        () => runTry(host.signal, timeoutMs, (signal) => callTool(host, tool, name, input.args, signal, context.runId)),
        (outcome) => outcome.isError === true,
      );
    }
  } catch (error) {
    // A tool that throws because its signal aborted was cancelled (by the client, or with its parallel group).
    return failedOutcome(host.signal.aborted ? new StepCancelledError() : error, `tool ${name}`, ' threw: ');
  }
  const text = toolResultText(result);
  if (result.isError)
    return { status: 'failed', reason: `tool ${name} returned an error: ${text || '(no message)'}`, errorType: 'tool_error' };
  let value: unknown;
  try {
    value = toolResultValue(result, text);
  } catch (error) {
    return { status: 'failed', reason: `tool ${name} returned text that is ${errorMessage(error)}`, errorType: 'malformed_result' };
  }
  trace.user(toolResultMessage(name, result, text));
  for (const block of result.content) if (block.type !== 'text') trace.userContent(block);
  return { status: 'completed', value };
}

/** Invokes a tool and checks its result, for a try under a timeout or retry. */
async function callTool(host: Host, tool: HostTool, name: string, args: unknown, signal: AbortSignal, runId: string): Promise<ToolResult> {
  return checkedToolResult(host, tool, name, await host.invokeTool(tool, name, args, signal, runId));
}
