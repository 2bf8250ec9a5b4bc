import type { ResourceAction } from '../../../model/actions/resource-action';
import type { ResourceResult } from '../../content';
import { errorMessage } from '../../text/error-message';
import type { PlannedStep } from '../../plan/plan-workflow';
import { expandUri } from '../../uri/expand-uri';
import { checkedResourceRead } from '../../results/checked-results';
import { stepTimeoutMs, type StepContext } from '../step-context';
import { failedOutcome, type StepOutcome } from '../step-outcome';
import { StepCancelledError, runTryLazily, withRetry } from '../step-policy';
import { resourceValue } from '../step-values';

/** Reads the step's resource in process, its URI filled with the step's template variables. */
export async function runResourceStep(
  step: PlannedStep,
  _action: ResourceAction,
  context: StepContext,
  values: Readonly<Record<string, string>>,
  shown?: Readonly<Record<string, string>>,
): Promise<StepOutcome> {
  const { host } = context;
  // The action table says a resource action reads a URI, so the plan parsed it.
  const expanded = expandUri(step.actionUri!, values, shown);
  if (!expanded.ok) return { status: 'handoff', reason: expanded.reason };
  context.trace.assistant(`Reading resource ${expanded.shown}`);
  let result: ResourceResult;
  try {
    result = await withRetry(
      step.model.retry,
      host.signal,
      () => runTryLazily(host, stepTimeoutMs(step, context), (signal) => checkedResourceRead(host, expanded.uri, signal)),
      () => false,
    );
  } catch (error) {
    const cause = host.signal.aborted ? new StepCancelledError() : error;
    return failedOutcome(cause, `could not read resource ${expanded.shown}`, ': ', `resource ${step.actionUri!.template}`);
  }
  let value: unknown;
  try {
    value = resourceValue(result);
  } catch (error) {
    const failure = `resource ${step.actionUri!.template} returned a malformed result`;
    return { status: 'failed', reason: `resource ${expanded.shown} returned ${errorMessage(error)}`, failure };
  }
  context.trace.embed(result, expanded);
  return { status: 'completed', value };
}
