import type { StepStatus } from '../flow/flow-outcome';
import type { ProgressUpdate } from '../host';
import type { PlannedStep } from '../plan/plan-workflow';
import { MAX_MESSAGE_CHARACTERS, boundStrings } from '../text/bounded-text';
import type { Redactor } from '../redaction/redactor';
import type { StepEvent, WorkflowHooks } from './step-events';

/**
 * Calls `onStep` with the event redacted (every field) by every secret known so far, then its long
 * texts cut (after redaction, so no part of a secret survives a cut); a hook that throws is reported on stderr and never changes the run.
 */
export async function notifyStep(hooks: WorkflowHooks, event: StepEvent, redactor: Redactor): Promise<void> {
  try {
    await hooks.onStep?.(boundStrings(redactor.redactDeep(event), MAX_MESSAGE_CHARACTERS));
  } catch (error) {
    console.error(`mcpflow: onStep hook threw for step '${event.step}' of workflow '${event.workflow}':`, error);
  }
}

/** The first word of a step's end in its progress message, by the step's status. */
const ENDED: Readonly<Record<StepStatus, string>> = {
  completed: 'Finished',
  skipped: 'Skipped',
  failed: 'Failed',
  cancelled: 'Cancelled',
  handoff: 'Handed off',
};

/**
 * Sends `notifications/progress` against the planned work: one unit per step, and per element of a
 * `forEach` step once its array is known (`total` grows then). A step run alone reports its start
 * (done + 0.5) and its end; steps of a parallel group and iterations report their ends only, so
 * values always increase. Each message is redacted like the trace.
 */
export class WorkProgress {
  private done = 0;
  private total: number;
  /** Steps whose iterations reported progress already. */
  private readonly looped = new Set<number>();

  constructor(
    private readonly notify: (update: ProgressUpdate) => Promise<void>,
    private readonly steps: number,
    private readonly redactor: Redactor,
  ) {
    this.total = steps;
  }

  started(step: PlannedStep): Promise<void> {
    return this.send(this.done + 0.5, `Started step ${step.index + 1} of ${this.steps}: ${step.model.name}`);
  }

  /** A `forEach` step's array is known: its elements replace its one unit of planned work. */
  planned(count: number): void {
    if (count > 0) this.total += count - 1;
  }

  iterationFinished(step: PlannedStep, index: number, count: number): Promise<void> {
    this.done += 1;
    this.looped.add(step.index);
    return this.send(this.done, `Finished item ${index + 1} of ${count} of step ${step.index + 1} of ${this.steps}: ${step.model.name}`);
  }

  /**
   * A step ended; a `forEach` step that ran iterations reported them already (and progress must
   * increase). The message's first word is how it ended: `Finished` (completed), `Skipped` (its
   * `when` was false), `Failed`, `Cancelled` or `Handed off`, so a client can tell a step's status live.
   */
  async finished(step: PlannedStep, status: StepStatus): Promise<void> {
    if (this.looped.has(step.index)) return;
    this.done += 1;
    await this.send(this.done, `${ENDED[status]} step ${step.index + 1} of ${this.steps}: ${step.model.name}`);
  }

  private async send(progress: number, message: string): Promise<void> {
    try {
      await this.notify({ progress, total: Math.max(this.total, progress), message: this.redactor.redact(message) });
    } catch {
      // The client went away; the trace is still built and returned to whoever is listening.
    }
  }
}
