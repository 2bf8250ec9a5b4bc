import type { StepContext } from '../../../packages/core/src/engine/steps/step-context';
import { stepTimeoutMs } from '../../../packages/core/src/engine/steps/step-context';
import type { StepKind } from '../../../packages/core/src/engine/steps/step-kind';
import { failedOutcome, type StepOutcome } from '../../../packages/core/src/engine/steps/step-outcome';
import { StepCancelledError, runTry } from '../../../packages/core/src/engine/steps/step-policy';
import type { PlannedStep } from '../../../packages/core/src/engine/plan/plan-workflow';
import type { DelayAction } from './delay-action';

/** Waits `ms` milliseconds; rejects with the signal's reason as soon as it aborts (a timeout, a cancellation). */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    function abort(): void {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', abort, { once: true });
  });
}

/** Announces the wait, waits under the step's timeout and the request's cancellation, and values it as the time waited. */
async function runDelay(step: PlannedStep, action: DelayAction, context: StepContext): Promise<StepOutcome> {
  context.trace.assistant(`Waiting ${action.ms} ms`);
  try {
    await runTry(context.host.signal, stepTimeoutMs(step, context), (signal) => wait(action.ms, signal));
  } catch (error) {
    return failedOutcome(context.host.signal.aborted ? new StepCancelledError() : error, 'the wait');
  }
  return { status: 'completed', value: { waitedMs: action.ms } };
}

/** The engine's delay step: the test-only third kind (CONTRIBUTING.md). */
export const delayStep: StepKind<DelayAction> = {
  kind: 'delay',
  run: runDelay,
  planLine: (step, action) => `${step.model.name}: wait ${action.ms} ms`,
  handoffDetails: () => '',
};
