import type { PlannedStep } from '../../plan/plan-workflow';
import { resourceReadText } from '../../trace/messages';
import { expandUri } from '../../uri/expand-uri';
import { checkedResourceRead } from '../../results/checked-results';
import { stepTimeoutMs, type StepContext } from '../step-context';
import { failedOutcome, type StepOutcome } from '../step-outcome';
import { StepCancelledError, runTry, withRetry } from '../step-policy';
import { resourceValue } from '../step-values';

/** Reads the step's resource in process, its URI filled with the step's template variables. */
export async function runResourceStep(
  step: PlannedStep,
  context: StepContext,
  values: Readonly<Record<string, string>>,
): Promise<StepOutcome> {
  const { host } = context;
  const expanded = step.resource ? expandUri(step.resource, values) : { ok: false as const, reason: 'the step names no resource' };
  if (!expanded.ok) return { status: 'handoff', reason: expanded.reason };
  context.trace.assistant(resourceReadText(expanded.uri));
  try {
    const result = await withRetry(
      step.model.retry,
      host.signal,
      () => runTry(host.signal, stepTimeoutMs(step, context), (signal) => checkedResourceRead(host, expanded.uri, signal)),
      () => false,
    );
    context.trace.embed(result);
    return { status: 'completed', value: resourceValue(result) };
  } catch (error) {
    return failedOutcome(host.signal.aborted ? new StepCancelledError() : error, `could not read resource ${expanded.uri}`);
  }
}
