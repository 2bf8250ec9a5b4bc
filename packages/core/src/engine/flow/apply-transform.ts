import type { PlannedStep } from '../plan/plan-workflow';
import { errorTypeOf, type StepOutcome } from '../steps/step-outcome';
import { findUnrepresentable } from '../results/find-unrepresentable';
import { errorMessage } from '../text/error-message';
import { isPromiseLike } from '../../util/is-promise-like';

/**
 * A completed step's value mapped by its `transform` (awaited when it returns a thenable); a throw,
 * or a value JSON cannot hold (a BigInt, a cycle: later steps and the trace could not carry it),
 * fails the step.
 */
export async function applyTransform(step: PlannedStep, outcome: StepOutcome): Promise<StepOutcome> {
  const { transform } = step.model;
  if (!transform || outcome.status !== 'completed') return outcome;
  try {
    const mapped = transform(outcome.value);
    const value = isPromiseLike(mapped) ? await mapped : mapped;
    const unrepresentable = findUnrepresentable(value, 'its value');
    if (unrepresentable)
      return { status: 'failed', reason: `its transform returned a value that cannot be sent as JSON: ${unrepresentable}` };
    return { status: 'completed', value };
  } catch (error) {
    return { status: 'failed', reason: `its transform threw: ${errorMessage(error)}`, errorType: errorTypeOf(error) };
  }
}
