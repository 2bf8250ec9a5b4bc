import type { ProgressUpdate } from '../host';
import type { PlannedStep } from '../plan/plan-workflow';
import type { Redactor } from '../trace/redactor';
import type { StepEvent, WorkflowHooks } from './step-events';

/**
 * Calls `onStep` with the event redacted by every secret known so far; a hook that throws is
 * reported on stderr and never changes the run.
 */
export async function notifyStep(hooks: WorkflowHooks, event: StepEvent, redactor: Redactor): Promise<void> {
  try {
    await hooks.onStep?.(redactor.redactDeep(event));
  } catch (error) {
    console.error(`mcpflow: onStep hook threw for step '${event.step}' of workflow '${event.workflow}':`, error);
  }
}

/** Reports a step's start or end as progress. */
export type ProgressReporter = (step: PlannedStep, phase: 'start' | 'end') => Promise<void>;

/**
 * Sends `notifications/progress` as each step starts (progress = index + 0.5, so values strictly
 * increase) and ends (index + 1), with total = steps; the message redacted like the trace.
 */
export function progressReporter(notify: (update: ProgressUpdate) => Promise<void>, total: number, redactor: Redactor): ProgressReporter {
  return async (step, phase) => {
    const progress = phase === 'start' ? step.index + 0.5 : step.index + 1;
    // Redacted like every text the server sends, though today it holds only names.
    const message = redactor.redact(`${phase === 'start' ? 'Started' : 'Finished'} step ${step.index + 1} of ${total}: ${step.model.name}`);
    try {
      await notify({ progress, total, message });
    } catch {
      // The client went away; the trace is still built and returned to whoever is listening.
    }
  };
}
