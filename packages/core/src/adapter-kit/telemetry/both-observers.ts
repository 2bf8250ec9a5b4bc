import type {
  CarriedTraceContext,
  ObservedRun,
  ObservedRunEnd,
  ObservedStep,
  ResumedRun,
  StepObservation,
  StepObserver,
} from '../../engine';
import type { RequestObserver } from './request-observer';

/**
 * Spans and debug lines together, behind the one observer the engine reports to: each report
 * reaches both, and a step's work runs inside both observations (the span active around it).
 *
 * @example
 * ```ts
 * const observer = new BothObservers(spans, log);
 * ```
 */
export class BothObservers implements RequestObserver {
  constructor(
    private readonly first: RequestObserver,
    private readonly second: RequestObserver,
  ) {}

  started(resumed: ResumedRun | undefined, run: ObservedRun): StepObserver | undefined {
    const first = this.first.started(resumed, run);
    const second = this.second.started(resumed, run);
    if (!first || !second) return first ?? second;
    return {
      stepStarted(step: ObservedStep): StepObservation {
        const outer = first.stepStarted(step);
        const inner = second.stepStarted(step);
        return {
          within: (work) => outer.within(() => inner.within(work)),
          ended(end) {
            inner.ended(end);
            outer.ended(end);
          },
        };
      },
    };
  }

  asked(question: Parameters<RequestObserver['asked']>[0]): void {
    this.first.asked(question);
    this.second.asked(question);
  }

  traceContext(): CarriedTraceContext | undefined {
    return this.first.traceContext() ?? this.second.traceContext();
  }

  ended(end: ObservedRunEnd): void {
    this.first.ended(end);
    this.second.ended(end);
  }

  threw(error: unknown): void {
    this.first.threw(error);
    this.second.threw(error);
  }
}
