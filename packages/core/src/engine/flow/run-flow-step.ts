import type { PlannedStep } from '../plan/plan-workflow';
import { runStep } from '../steps/run-step';
import type { StepContext } from '../steps/step-context';
import { applyTransform } from './apply-transform';
import type { FlowObserver } from './flow-observer';
import type { FlowOutcome } from './flow-outcome';
import { runForEach } from './run-for-each';

/**
 * Runs one step with its flow options: skipped when its `when` (not reading `item()`) is false,
 * once per element with `forEach`, its value mapped by `transform`. A step without flow options
 * goes straight to `runStep`.
 */
export async function runFlowStep(step: PlannedStep, context: StepContext, observer: FlowObserver): Promise<FlowOutcome> {
  if (step.when && !step.when.readsItem && !step.when.holds(context.scope))
    return { status: 'skipped', reason: `when ${step.when.text} is false` };
  if (step.forEach) return runForEach(step, context, observer);
  return applyTransform(step, await runStep(step, context), context);
}
