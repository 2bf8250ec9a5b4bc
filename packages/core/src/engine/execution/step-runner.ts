import type { FlowObserver, IterationRef } from '../flow/flow-observer';
import type { FlowOutcome } from '../flow/flow-outcome';
import { runFlowStep } from '../flow/run-flow-step';
import type { PlannedStep, WorkflowPlan } from '../plan/plan-workflow';
import type { Redactor } from '../redaction/redactor';
import type { ObservedStep, ObservedStepEnd, StepObservation, StepObserver } from '../run-observer';
import { runStep } from '../steps/run-step';
import type { StepContext } from '../steps/step-context';
import type { Trace } from '../trace/trace';
import { collectSecrets } from './collect-secrets';
import type { ExecutionState, ExecutionStop, StepFlow } from './execution-state';
import { notifyStep, type WorkProgress } from './report-step';
import { optionalFailureText, skippedText } from './run-messages';
import type { WorkflowHooks } from './step-events';

/**
 * Runs steps for one execution and records how each ended in its state; tells `onStep`, progress
 * and the run's step observer about steps and, as the loop's observer, about each iteration.
 */
export class StepRunner implements FlowObserver {
  constructor(
    private readonly plan: WorkflowPlan,
    private readonly state: ExecutionState,
    private readonly hooks: WorkflowHooks,
    private readonly progress: WorkProgress | undefined,
    /** The run's redactor: it covers `onStep` events too, and learns the secrets each binding reveals. */
    private readonly redactor: Redactor,
    /** What observes each step (spans, the debug log); absent when nothing does, and then it costs nothing. */
    private readonly steps?: StepObserver,
    /** The request asked for timing: each step's and iteration's duration goes into the state's flow, for `_meta`. */
    private readonly timing = false,
  ) {}

  /**
   * A step's outcome, with its flow options and its events. Not `async` itself: a plain step with
   * no hook, no progress and no observer goes straight to `runStep`.
   */
  outcome(step: PlannedStep, context: StepContext, alone: boolean): Promise<FlowOutcome> {
    if (!step.hasFlow && !this.hooks.onStep && !this.progress && !this.steps && !this.timing) return runStep(step, context);
    return this.observed(step, context, alone);
  }

  /**
   * Records how a step ended: its status, its binding, the reason it was skipped or an optional
   * step failed, how its iterations ended. Returns the stop when the step stops the run.
   */
  settle(step: PlannedStep, outcome: FlowOutcome, trace: Trace): ExecutionStop | undefined {
    this.state.statuses[step.index] = outcome.status;
    if (outcome.iterations) this.flow(step).iterations = outcome.iterations;
    if (outcome.status === 'completed') {
      if (step.model.binding !== undefined) {
        this.state.bindings[step.model.binding] = outcome.value;
        // A later sensitive argument may read this value (login → token): it is a secret from now on.
        collectSecrets(this.plan, this.state, this.redactor);
      }
      return undefined;
    }
    if (outcome.status === 'skipped') {
      this.flow(step).reason = outcome.reason;
      trace.assistant(skippedText(step.model.name, outcome.reason));
      return undefined;
    }
    if (outcome.status !== 'cancelled' && step.model.optional) {
      this.flow(step).reason = outcome.reason;
      trace.user(optionalFailureText(step.model.name, outcome.reason));
      return undefined;
    }
    return { step: step.index, status: outcome.status, reason: outcome.reason };
  }

  /**
   * Ends the run at a step that could not run because its questions were not answered (or the
   * request was cancelled while they were open): its status, and the start and end `onStep` see.
   */
  async stopBeforeRunning(step: PlannedStep, status: 'handoff' | 'cancelled', reason: string): Promise<ExecutionStop> {
    this.state.statuses[step.index] = status;
    this.steps?.stepStarted(this.observedStep(step)).ended(this.observedEnd({ status, reason }));
    if (this.hooks.onStep) {
      const event = { workflow: this.plan.model.name, step: step.model.name, index: step.index, total: this.plan.steps.length };
      await notifyStep(this.hooks, { phase: 'start', ...event }, this.redactor);
      await notifyStep(this.hooks, { phase: 'end', ...event, status, durationMs: 0, reason }, this.redactor);
    }
    return { step: step.index, status, reason };
  }

  get timesIterations(): boolean {
    return this.hooks.onStep !== undefined || this.timing;
  }

  /** The flow record of a step in the state, created on first use. */
  flow(step: PlannedStep): StepFlow {
    return (this.state.flow[step.index] ??= {});
  }

  loopPlanned(_step: PlannedStep, count: number): void {
    this.progress?.planned(count);
  }

  iterationStarted(step: PlannedStep, iteration: IterationRef): StepObservation | undefined | Promise<StepObservation | undefined> {
    if (!this.hooks.onStep) return this.steps?.stepStarted({ ...this.observedStep(step), iteration });
    return this.notifiedIterationStart(step, iteration);
  }

  iterationEnded(
    step: PlannedStep,
    iteration: IterationRef,
    outcome: FlowOutcome,
    durationMs: number,
    observation: StepObservation | undefined,
  ): void | Promise<void> {
    observation?.ended(this.observedEnd(outcome));
    if (this.timing)
      (this.flow(step).iterationDurationsMs ??= Array<number | null>(iteration.count).fill(null))[iteration.index] = durationMs;
    if (this.hooks.onStep || this.progress) return this.notifiedIterationEnd(step, iteration, outcome, durationMs);
  }

  private async notifiedIterationStart(step: PlannedStep, iteration: IterationRef): Promise<StepObservation | undefined> {
    await notifyStep(
      this.hooks,
      {
        phase: 'start',
        workflow: this.plan.model.name,
        step: step.model.name,
        index: step.index,
        total: this.plan.steps.length,
        iteration,
      },
      this.redactor,
    );
    return this.steps?.stepStarted({ ...this.observedStep(step), iteration });
  }

  private async notifiedIterationEnd(step: PlannedStep, iteration: IterationRef, outcome: FlowOutcome, durationMs: number): Promise<void> {
    if (this.hooks.onStep) {
      const event = {
        phase: 'end',
        workflow: this.plan.model.name,
        step: step.model.name,
        index: step.index,
        total: this.plan.steps.length,
        iteration,
        status: outcome.status,
        durationMs,
      } as const;
      await notifyStep(this.hooks, outcome.status === 'completed' ? event : { ...event, reason: outcome.reason }, this.redactor);
    }
    if (this.progress) await this.progress.iterationFinished(step, iteration.index, iteration.count);
  }

  private async observed(step: PlannedStep, context: StepContext, alone: boolean): Promise<FlowOutcome> {
    const { hooks, progress } = this;
    const workflow = this.plan.model.name;
    const total = this.plan.steps.length;
    const started = hooks.onStep || this.timing ? performance.now() : 0;
    if (hooks.onStep) await notifyStep(hooks, { phase: 'start', workflow, step: step.model.name, index: step.index, total }, this.redactor);
    if (alone && progress) await progress.started(step);
    const observation = this.steps?.stepStarted(this.observedStep(step));
    const run = () => (step.hasFlow ? runFlowStep(step, context, this) : runStep(step, context));
    const outcome = await (observation ? observation.within(run) : run());
    observation?.ended(this.observedEnd(outcome));
    const durationMs = started && performance.now() - started;
    if (this.timing) this.flow(step).durationMs = durationMs;
    if (hooks.onStep) {
      const event = {
        phase: 'end',
        workflow,
        step: step.model.name,
        index: step.index,
        total,
        status: outcome.status,
        durationMs,
      } as const;
      await notifyStep(hooks, outcome.status === 'completed' ? event : { ...event, reason: outcome.reason }, this.redactor);
    }
    if (progress) await progress.finished(step, outcome.status);
    return outcome;
  }

  /** A step as its observer sees it: names and positions, the parallel group it runs in. */
  private observedStep(step: PlannedStep): ObservedStep {
    const group = step.model.parallel ? this.plan.groups.find((members) => members.includes(step)) : undefined;
    return {
      name: step.model.name,
      index: step.index,
      action: step.action,
      forEach: step.forEach !== undefined,
      group: group && group.length > 1 ? { first: group[0].model.name, size: group.length } : undefined,
    };
  }

  /** How a step ended, for its observer: what failed, never a value (the reason stays in the trace and `_meta`). */
  private observedEnd(outcome: FlowOutcome): ObservedStepEnd {
    const { iterations } = outcome;
    const counts = iterations && {
      count: iterations.count,
      completed: iterations.completed,
      skipped: iterations.skipped,
      failed: iterations.failed,
      cancelled: iterations.cancelled,
    };
    if (outcome.status === 'completed' || outcome.status === 'skipped') return { status: outcome.status, iterations: counts };
    if (outcome.status !== 'failed') return { status: outcome.status, iterations: counts };
    return { status: outcome.status, failure: outcome.failure ?? 'failed', errorType: outcome.errorType, iterations: counts };
  }
}
