import type { StepAction } from '../model';

/**
 * The W3C trace context a paused run carries in its sealed state (`traceparent`, `tracestate`),
 * so that the round that resumes it — on any instance — continues the same trace. Opaque to the
 * engine: the observer that returned it reads it back.
 */
export interface CarriedTraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** A run resuming from a paused state: the trace context it carried, and how many rounds it has waited so far. */
export interface ResumedRun {
  readonly traceContext?: CarriedTraceContext;
  readonly rounds: number;
}

/** The run as observers see it when it starts or resumes: the version of the workflow it runs on. */
export interface ObservedRun {
  /**
   * The `@Workflow` `version` of the class the run goes on in — the workflow's own, or, for a
   * state resumed on a class kept in `previous`, that class's (DESIGN §2.16); absent when that
   * class declares none.
   */
  readonly version?: string;
}

/** A step (or one element of a `forEach` step) as observers see it: names and positions, never a value. */
export interface ObservedStep {
  readonly name: string;
  readonly index: number;
  /** What the step does: the tool's name, or the resource's URI template (never a filled URI). */
  readonly action: StepAction;
  /** True for a `forEach` step as a whole; each element is observed on its own, with `iteration`. */
  readonly forEach: boolean;
  /** The parallel group the step runs in: its first step's name and how many steps it has. */
  readonly group?: { readonly first: string; readonly size: number };
  /** Inside a `forEach` step: which element. */
  readonly iteration?: { readonly index: number; readonly count: number };
}

/** How a step ended, as observers see it. */
export interface ObservedStepEnd {
  readonly status: 'completed' | 'skipped' | 'handoff' | 'failed' | 'cancelled';
  /**
   * On failure, what failed without a value (DESIGN §2.11): `tool fetch threw`, `resource
   * if://walkthrough/{game_id} timed out after 30000 ms`. The reason, which may quote values, stays
   * in the trace and `_meta`.
   */
  readonly failure?: string;
  /** On failure, the kind of error: `tool_error`, `timeout`, the thrown error's class name, or `_OTHER`. */
  readonly errorType?: string;
  /** A `forEach` step: how many elements, and how their iterations ended. */
  readonly iterations?: {
    readonly count: number;
    readonly completed: number;
    readonly skipped: number;
    readonly failed: number;
    readonly cancelled: number;
  };
}

/** How a run's request ended: paused for answers, or the run ended (as `_meta["mcpflow/execution"]` reports it, redacted). */
export type ObservedRunEnd =
  | { readonly status: 'paused'; readonly questions: number }
  | {
      readonly status: 'completed' | 'handoff' | 'failed' | 'cancelled';
      readonly stoppedAt?: string;
    };

/**
 * What watches one request's share of a run from outside the engine — the server's OpenTelemetry
 * spans and its debug log — reached through the host (`Host.observer`: the span to report under).
 * The engine reports each point once and never learns what is recorded. Nothing it passes holds a
 * value: names, positions, statuses, counts, error types and what failed (`tool fetch threw`).
 *
 * @example
 * ```ts
 * const steps = host.observer?.started(undefined, { version: '2' }); // before anything of the run happens
 * const step = steps?.stepStarted({ name: 'progress', index: 0, action, forEach: false });
 * const outcome = step ? await step.within(() => runStep(planned, context)) : await runStep(planned, context);
 * step?.ended({ status: outcome.status });
 * host.observer?.ended({ status: 'completed' });
 * ```
 */
export interface RunObserver {
  /**
   * The run starts, or resumes from a paused state: called once, before anything of it runs.
   * Returns what hears about its steps, or nothing when steps are not observed (no tracer provider
   * registered, no log): then the engine does no per-step work for it. `run`: which version of
   * the workflow it runs on.
   */
  started(resumed: ResumedRun | undefined, run: ObservedRun): StepObserver | undefined;
  /** A question is put to the client, in place or with `input_required`. */
  asked(question: { readonly step: string; readonly key: string; readonly kind: 'askUser' | 'askModel' }): void;
  /** The run pauses: the trace context its sealed state carries (nothing: keep what it carried before). */
  traceContext(): CarriedTraceContext | undefined;
  /** The request's share of the run is over: paused, or the run ended. */
  ended(end: ObservedRunEnd): void;
}

/** What hears about a run's steps: each step, and each element of a `forEach` step, as it starts. */
export interface StepObserver {
  stepStarted(step: ObservedStep): StepObservation;
}

/** One step being observed. */
export interface StepObservation {
  /** Runs the step's work as part of this observation (a span active around it), returning what it returns. */
  within<T>(work: () => T): T;
  ended(end: ObservedStepEnd): void;
}
