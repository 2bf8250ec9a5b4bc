import type { PlannedStep } from '../plan/plan-workflow';
import type { StepOutcome } from '../steps/step-outcome';
import { errorMessage } from '../trace/messages';

/** A completed step's value mapped by its `transform` (awaited when it returns a thenable); a throw fails the step. */
export async function applyTransform(step: PlannedStep, outcome: StepOutcome): Promise<StepOutcome> {
  const { transform } = step.model;
  if (!transform || outcome.status !== 'completed') return outcome;
  try {
    const mapped = transform(outcome.value);
    const value = typeof (mapped as PromiseLike<unknown> | undefined)?.then === 'function' ? await mapped : mapped;
    return { status: 'completed', value };
  } catch (error) {
    return { status: 'failed', reason: `its transform threw: ${errorMessage(error)}` };
  }
}
