import type { PlannedStep } from '../plan/plan-workflow';
import { stepTimeoutMs, type StepContext } from '../steps/step-context';
import { failedOutcome, type StepOutcome } from '../steps/step-outcome';
import { StepCancelledError, runTry } from '../steps/step-policy';
import { findUnrepresentable } from '../results/find-unrepresentable';
import { isPromiseLike } from '../../util/is-promise-like';

/**
 * A completed step's value mapped by its `transform`; a throw, or a value JSON cannot hold (a
 * BigInt, a cycle: later steps and the trace could not carry it), fails the step. A transform that
 * returns a thenable is awaited under the step's timeout and its request's cancellation, as its
 * tool was; a cancellation during a synchronous one cancels the step once it returns.
 */
export async function applyTransform(step: PlannedStep, outcome: StepOutcome, context: StepContext): Promise<StepOutcome> {
  const { transform } = step.model;
  if (!transform || outcome.status !== 'completed') return outcome;
  const { signal } = context.host;
  try {
    const mapped = transform(outcome.value);
    const value = isPromiseLike(mapped) ? await runTry(signal, stepTimeoutMs(step, context), () => mapped) : mapped;
    if (signal.aborted) throw new StepCancelledError();
    const unrepresentable = findUnrepresentable(value, 'its value');
    if (unrepresentable) {
      const failure = 'its transform returned a value that cannot be sent as JSON';
      return { status: 'failed', reason: `${failure}: ${unrepresentable}`, failure };
    }
    return { status: 'completed', value };
  } catch (error) {
    return failedOutcome(signal.aborted ? new StepCancelledError() : error, 'its transform', ' threw: ');
  }
}
