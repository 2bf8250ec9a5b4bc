import type { Attributes, Context, Link, Span, Tracer } from '@opentelemetry/api';
import type {
  CarriedTraceContext,
  ObservedRun,
  ObservedRunEnd,
  ObservedStep,
  ObservedStepEnd,
  ResumedRun,
  StepObservation,
  StepObserver,
} from '../../engine';
import type { RunFace } from '../run/run-face';
import { carriedSpanContext, carryTraceContext } from './carried-trace-context';
import type { OtelApi } from './otel-api';
import { thrownType, type RequestObserver } from './request-observer';
import * as semconv from './semconv';
import { stepSpan } from './step-span';

/**
 * One request's share of a run as OpenTelemetry spans (DESIGN §2.11): a SERVER span
 * `prompts/get {workflow}` (or `tools/call {tool}`), and a direct child per step — `execute_tool
 * {tool}`, `resources/read {uri template}` — active around the step's work, so what a tool's
 * handler traces itself nests under its step. Asks are events of the run span.
 *
 * Parent: the trace context the client sent in `params._meta` (read by the registered propagator
 * into `parent`); on a resumed round, the context the sealed state carried, which wins — the
 * retry's own then becomes a link. A run span that does not record (no tracer provider registered,
 * or not sampled) means no step is observed at all: the engine then does no per-step work.
 *
 * A `forEach` step is one span per element (each its own tool call or read, so a viewer shows
 * each element's duration, how the elements overlapped under `concurrency`, and the one that
 * failed), all direct children of the run span, with the element's position as attributes; a loop
 * that ran no element (an empty array, no array, too many) is one span for the step. Steps of a
 * parallel group carry the group's first step and size. Nothing recorded holds a value (DESIGN
 * §2.11): names, positions, statuses, counts, and a failed step's status message is the step, the
 * error type and what failed — `step save: RateLimitError, tool fetch_save threw`, `step page:
 * timeout, resource vault://tokens/{t} timed out after 30000 ms` — as is the run's, when it stopped
 * there. The reason, which may quote values, stays in the trace and `_meta`.
 *
 * @example
 * ```ts
 * const observer = new SpanRunObserver(api, tracer, { method: 'prompts/get', name: 'get_hint' }, 'get_hint', parent, startTime);
 * await executeWorkflow(plan, args, new AdapterHost(line, registry, context, asking, observer), options);
 * ```
 */
export class SpanRunObserver implements RequestObserver, StepObserver {
  private run?: Span;
  /** The run span's context: the parent of every step span. */
  private runContext?: Context;
  private over = false;
  /** The `error.type` and status message of each step that failed, by name: the run's when it stopped there. */
  private readonly stepErrors = new Map<string, { readonly type: string; readonly message: string }>();
  /** `forEach` steps whose span waits to see whether any element ran, by index. */
  private readonly loops = new Map<number, LoopObservation>();

  constructor(
    private readonly api: OtelApi,
    private readonly tracer: Tracer,
    private readonly face: RunFace,
    private readonly workflow: string,
    /** The request's context, with the client's trace context (if it sent one) as its span. */
    private readonly parent: Context,
    /** When the request arrived (epoch milliseconds). */
    private readonly startTime: number,
    /** A rerun's origin (dev mode, `mcpflow/rerun`): the span context of the run it reruns, linked from the run span. */
    private readonly origin?: CarriedTraceContext,
  ) {}

  started(resumed: ResumedRun | undefined, run: ObservedRun): StepObserver | undefined {
    const span = this.startRun(resumed, run);
    return span.isRecording() ? this : undefined;
  }

  asked(question: { readonly step: string; readonly key: string; readonly kind: 'askUser' | 'askModel' }): void {
    this.run?.addEvent(semconv.EVENT_MCPFLOW_ASK, {
      [semconv.ATTR_MCPFLOW_ASK_KIND]: question.kind === 'askUser' ? 'user' : 'model',
      [semconv.ATTR_MCPFLOW_ASK_KEY]: question.key,
      [semconv.ATTR_MCPFLOW_STEP_NAME]: question.step,
    });
  }

  traceContext(): CarriedTraceContext | undefined {
    return this.run && carryTraceContext(this.api, this.run.spanContext());
  }

  ended(end: ObservedRunEnd): void {
    const span = this.run;
    if (!span || this.over) return;
    this.over = true;
    if (span.isRecording()) {
      span.setAttribute(semconv.ATTR_MCPFLOW_EXECUTION_STATUS, end.status);
      if (end.status !== 'paused' && end.stoppedAt !== undefined)
        span.setAttribute(semconv.ATTR_MCPFLOW_EXECUTION_STOPPED_AT, end.stoppedAt);
      if (end.status === 'failed') {
        const failed = end.stoppedAt === undefined ? undefined : this.stepErrors.get(end.stoppedAt);
        // A failed tools/call is a tool result with isError: true, which the conventions call tool_error.
        const errorType =
          this.face.method === 'tools/call' ? semconv.ERROR_TYPE_VALUE_TOOL_ERROR : (failed?.type ?? semconv.ERROR_TYPE_VALUE_OTHER);
        span.setAttribute(semconv.ATTR_ERROR_TYPE, errorType);
        // The failed step's value-free message; the reason, which may quote values, stays in the trace and _meta.
        const message = failed?.message ?? (end.stoppedAt === undefined ? 'the run failed' : `step ${end.stoppedAt} failed`);
        span.setStatus({ code: this.api.SpanStatusCode.ERROR, message });
      }
    }
    span.end();
  }

  threw(error: unknown): void {
    if (this.over) return;
    const span = this.run ?? this.startRun(undefined, {});
    this.over = true;
    if (span.isRecording()) {
      // The type only: a thrown error's message is not the redacted reason of a trace.
      span.setAttribute(semconv.ATTR_ERROR_TYPE, thrownType(error));
      span.setStatus({ code: this.api.SpanStatusCode.ERROR });
    }
    span.end();
  }

  stepStarted(step: ObservedStep): StepObservation {
    if (step.forEach && !step.iteration) {
      const loop = new LoopObservation(this, step, now());
      this.loops.set(step.index, loop);
      return loop;
    }
    if (step.iteration) this.loops.get(step.index)?.elementStarted();
    return this.stepSpan(step, undefined);
  }

  /** A step's span, a child of the run span, from `startTime` (now when not given). */
  stepSpan(step: ObservedStep, startTime: number | undefined): SpanObservation {
    const { name, attributes } = stepSpan(step);
    const span = this.tracer.startSpan(name, { kind: this.api.SpanKind.INTERNAL, attributes, startTime }, this.runContext);
    return new SpanObservation(this, step, span);
  }

  /** Records how a step ended on its span, and ends it. */
  endStep(span: Span, step: ObservedStep, end: ObservedStepEnd): void {
    span.setAttribute(semconv.ATTR_MCPFLOW_STEP_STATUS, end.status);
    // A loop's own span (no element ran): how long its array was, when it had one.
    if (end.iterations) span.setAttribute(semconv.ATTR_MCPFLOW_STEP_ITERATION_COUNT, end.iterations.count);
    if (end.status === 'failed') {
      const type = end.errorType ?? semconv.ERROR_TYPE_VALUE_OTHER;
      const message = `step ${step.name}: ${type}, ${end.failure ?? 'failed'}`;
      this.stepErrors.set(step.name, { type, message });
      span.setAttribute(semconv.ATTR_ERROR_TYPE, type);
      span.setStatus({ code: this.api.SpanStatusCode.ERROR, message });
    }
    span.end();
  }

  /** Runs `work` with `span` active (for what the step's handlers trace themselves). */
  within<T>(span: Span, work: () => T): T {
    const { api } = this;
    return api.context.with(api.trace.setSpan(this.runContext ?? this.parent, span), work);
  }

  private startRun(resumed: ResumedRun | undefined, { version }: ObservedRun): Span {
    const { api, face } = this;
    let parent = this.parent;
    let links: Link[] | undefined;
    const carried = resumed?.traceContext && carriedSpanContext(api, resumed.traceContext);
    if (carried) {
      // The sealed state's trace wins: a client cannot graft the run onto another trace. Its own is linked.
      const own = api.trace.getSpanContext(parent);
      if (own && api.isSpanContextValid(own)) links = [{ context: own }];
      parent = api.trace.setSpanContext(parent, carried);
    }
    const origin = this.origin && carriedSpanContext(api, this.origin);
    if (origin)
      links = [
        ...(links ?? []),
        { context: origin, attributes: { [semconv.ATTR_MCPFLOW_LINK_KIND]: semconv.MCPFLOW_LINK_KIND_VALUE_RERUN } },
      ];
    const attributes: Attributes = {
      [semconv.ATTR_MCP_METHOD_NAME]: face.method,
      [semconv.ATTR_MCPFLOW_WORKFLOW_NAME]: this.workflow,
      [semconv.ATTR_MCPFLOW_RUN_ROUND]: resumed ? resumed.rounds + 1 : 1,
    };
    if (version !== undefined) attributes[semconv.ATTR_MCPFLOW_WORKFLOW_VERSION] = version;
    if (face.method === 'tools/call') {
      // A tools/call is a tool's execution by the MCP conventions, whatever runs behind it.
      attributes[semconv.ATTR_GEN_AI_TOOL_NAME] = face.name;
      attributes[semconv.ATTR_GEN_AI_OPERATION_NAME] = semconv.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL;
    } else {
      attributes[semconv.ATTR_GEN_AI_PROMPT_NAME] = face.name;
      attributes[semconv.ATTR_GEN_AI_OPERATION_NAME] = semconv.GEN_AI_OPERATION_NAME_VALUE_INVOKE_WORKFLOW;
    }
    const span = this.tracer.startSpan(
      `${face.method} ${face.name}`,
      { kind: api.SpanKind.SERVER, attributes, links, startTime: this.startTime },
      parent,
    );
    this.run = span;
    this.runContext = api.trace.setSpan(parent, span);
    return span;
  }
}

/** A step (or an element of a `forEach` step) observed as a span. */
class SpanObservation implements StepObservation {
  constructor(
    private readonly observer: SpanRunObserver,
    private readonly step: ObservedStep,
    private readonly span: Span,
  ) {}

  within<T>(work: () => T): T {
    return this.observer.within(this.span, work);
  }

  ended(end: ObservedStepEnd): void {
    this.observer.endStep(this.span, this.step, end);
  }
}

/**
 * A `forEach` step as a whole: its elements are spans of their own, so the step has one only when
 * no element ran — then, from when the step started, with how it ended.
 */
class LoopObservation implements StepObservation {
  private ranElements = false;

  constructor(
    private readonly observer: SpanRunObserver,
    private readonly step: ObservedStep,
    private readonly startTime: number,
  ) {}

  elementStarted(): void {
    this.ranElements = true;
  }

  within<T>(work: () => T): T {
    return work();
  }

  ended(end: ObservedStepEnd): void {
    if (!this.ranElements) this.observer.stepSpan(this.step, this.startTime).ended(end);
  }
}

/** Now, in epoch milliseconds with the monotonic clock's precision. */
function now(): number {
  return performance.timeOrigin + performance.now();
}
