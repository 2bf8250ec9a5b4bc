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
  /** Whether `iterationEnded` reads `durationMs` (an `onStep` hook): if not, the loop does not time its elements. */
  readonly timesIterations: boolean;
  /** The array is known: `count` elements will run (or be skipped). */
  loopPlanned(step: PlannedStep, count: number): void;
  /**
   * An element starts; the observation returned (when the run's steps are observed) runs its work.
   * A promise only when there is something to wait for (an `onStep` hook): a loop of plain elements
   * pays no await per element.
   */
  iterationStarted(step: PlannedStep, iteration: IterationRef): StepObservation | undefined | Promise<StepObservation | undefined>;
  /** An element ended; a promise only when there is something to wait for (`onStep`, progress). */
  iterationEnded(
    step: PlannedStep,
    iteration: IterationRef,
    outcome: FlowOutcome,
    durationMs: number,
    observation: StepObservation | undefined,
  ): void | Promise<void>;
}
