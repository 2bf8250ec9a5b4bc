import type { PlannedStep } from '../plan/plan-workflow';
import type { StepObservation } from '../run-observer';
import type { FlowOutcome } from './flow-outcome';

/** Inside a `forEach` step: which element an event is about. */
export interface IterationRef {
  readonly index: number;
  readonly count: number;
}

/** What a loop tells the executor as it goes, for `onStep`, progress and the run's observer. */
export interface FlowObserver {
  /** The array is known: `count` elements will run (or be skipped). */
  loopPlanned(step: PlannedStep, count: number): void;
  /** An element starts; the observation returned (when the run's steps are observed) runs its work. */
  iterationStarted(step: PlannedStep, iteration: IterationRef): Promise<StepObservation | undefined>;
  iterationEnded(
    step: PlannedStep,
    iteration: IterationRef,
    outcome: FlowOutcome,
    durationMs: number,
    observation: StepObservation | undefined,
  ): Promise<void>;
}
