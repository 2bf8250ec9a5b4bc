import type { PlannedStep } from '../plan/plan-workflow';
import type { StepStatus } from './flow-outcome';

/** Inside a `forEach` step: which element an event is about. */
export interface IterationRef {
  readonly index: number;
  readonly count: number;
}

/** What a loop tells the executor as it goes, for `onStep` and progress. */
export interface FlowObserver {
  /** The array is known: `count` elements will run (or be skipped). */
  loopPlanned(step: PlannedStep, count: number): void;
  iterationStarted(step: PlannedStep, iteration: IterationRef): Promise<void>;
  iterationEnded(step: PlannedStep, iteration: IterationRef, status: StepStatus, durationMs: number, reason?: string): Promise<void>;
}
