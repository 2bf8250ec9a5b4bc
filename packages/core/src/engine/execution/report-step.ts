import type { ProgressUpdate } from '../host';
import type { PlannedStep } from '../plan/plan-workflow';
import type { StepEvent, WorkflowHooks } from './step-events';

/** Calls `onStep`; a hook that throws is reported on stderr and never changes the run. */
export async function notifyStep(hooks: WorkflowHooks, event: StepEvent): Promise<void> {
  try {
    await hooks.onStep?.(event);
  } catch (error) {
    console.error(`mcpflow: onStep hook threw for step '${event.step}' of workflow '${event.workflow}':`, error);
  }
}

/** Reports a step's start or end as progress. */
export type ProgressReporter = (step: PlannedStep, phase: 'start' | 'end') => Promise<void>;

/**
 * Sends `notifications/progress` as each step starts (progress = index + 0.5, so values strictly
 * increase) and ends (index + 1), with total = steps.
 */
export function progressReporter(notify: (update: ProgressUpdate) => Promise<void>, total: number): ProgressReporter {
  return async (step, phase) => {
    const progress = phase === 'start' ? step.index + 0.5 : step.index + 1;
    const message = `${phase === 'start' ? 'Started' : 'Finished'} step ${step.index + 1} of ${total}: ${step.model.name}`;
    try {
      await notify({ progress, total, message });
    } catch {
      // The client went away; the trace is still built and returned to whoever is listening.
    }
  };
}
