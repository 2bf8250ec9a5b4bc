import type { Context, TextMapGetter } from '@opentelemetry/api';
import { InvalidServerOptionError, type CarriedTraceContext, type WorkflowPlan } from '../../engine';
import { isPromiseLike } from '../../util/is-promise-like';
import type { RunFace } from '../run/run-face';
import { BothObservers } from './both-observers';
import { debugLine, type WorkflowLogger } from './debug-log';
import { LogRunObserver } from './log-run-observer';
import { otelApi, type OtelApi } from './otel-api';
import type { RequestObserver } from './request-observer';
import { SpanRunObserver } from './span-run-observer';

/** What a server's runs are observed by: its `telemetry` and `logger` options. */
export interface ObservingOptions {
  /** `false` turns OpenTelemetry spans off; default: on when `@opentelemetry/api` is installed. */
  telemetry?: boolean;
  /** Where the debug lines go; default: stderr when `DEBUG` names mcpflow, else nowhere. */
  logger?: WorkflowLogger;
}

/** A request's `params._meta` as the propagator reads it: own string values only (the rest is not a trace header). */
const metaGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (meta) => Object.keys(meta),
  get(meta, key) {
    const value = Object.hasOwn(meta, key) ? meta[key] : undefined;
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * How one server observes its runs, decided once when it is made (a server per request stays
 * cheap): spans unless `telemetry: false`, debug lines when a logger or `DEBUG` asks for them.
 * `forRun` gives each request its observer, or nothing — then the engine reports nothing at all.
 *
 * @example
 * ```ts
 * const observing = new RunObserving({ telemetry: true });
 * const observer = observing.forRun(face, plan, line.request.meta(context));
 * ```
 */
export class RunObserving {
  private readonly tracing: boolean;
  private readonly log?: (line: string) => void;

  constructor(options: ObservingOptions) {
    checkOptions(options);
    this.tracing = options.telemetry !== false;
    // Start loading the API now, so that the first request rarely waits for it.
    if (this.tracing) void otelApi();
    this.log = debugLine(options.logger, process.env.DEBUG);
  }

  /**
   * The observer of one request's share of a run through `face` (default: the workflow's prompt),
   * or nothing when nothing observes runs; while `@opentelemetry/api` is still loading (the first
   * requests of a process), the promise of it. `origin`: a rerun's (dev mode), the span context
   * of the run it reruns, which its run span links to.
   */
  forRun(
    requestFace: RunFace | undefined,
    plan: WorkflowPlan,
    meta: Readonly<Record<string, unknown>> | undefined,
    origin?: CarriedTraceContext,
  ): RequestObserver | undefined | Promise<RequestObserver | undefined> {
    const api = this.tracing ? otelApi() : null;
    // Neither spans nor a log: the engine gets no observer, and reports nothing.
    if (!api && !this.log) return undefined;
    const face = requestFace ?? { method: 'prompts/get', name: plan.model.name };
    // While the API loads, the run's start is now; otherwise it is read only once a span will be made.
    if (isPromiseLike(api)) {
      const startTime = performance.timeOrigin + performance.now();
      return api.then((loaded) => this.observer(loaded, face, plan, meta, startTime, origin));
    }
    return this.observer(api, face, plan, meta, undefined, origin);
  }

  private observer(
    api: OtelApi | null,
    face: RunFace,
    plan: WorkflowPlan,
    meta: Readonly<Record<string, unknown>> | undefined,
    startTime: number | undefined,
    origin: CarriedTraceContext | undefined,
  ): RequestObserver | undefined {
    const log = this.log && new LogRunObserver(this.log, face, plan.model.name, plan.steps.length);
    if (!api) return log;
    const parent = parentOf(api, meta);
    // No tracer provider and no trace to continue: every span would be a no-op with no context to
    // carry, so nothing observes the run and it costs nothing (a pause keeps the trace context its
    // sealed state carried). Asked per run: a provider registered later gets the next run's spans.
    if (!hasTracerProvider(api) && !hasSpanContext(api, parent)) return log;
    const tracer = api.trace.getTracer('@mcpflow/core');
    const spans = new SpanRunObserver(
      api,
      tracer,
      face,
      plan.model.name,
      parent,
      startTime ?? performance.timeOrigin + performance.now(),
      origin,
    );
    return log ? new BothObservers(spans, log) : spans;
  }
}

/** Throws `InvalidServerOptionError` for a `telemetry` or `logger` that would be misread (`telemetry: 'false'` is not false). */
function checkOptions({ telemetry, logger }: ObservingOptions): void {
  if (telemetry !== undefined && typeof telemetry !== 'boolean')
    throw new InvalidServerOptionError('telemetry', `must be true or false (got ${shown(telemetry)}).`);
  if (logger !== undefined && typeof logger !== 'function' && typeof (logger as { debug?: unknown } | null)?.debug !== 'function')
    throw new InvalidServerOptionError(
      'logger',
      `must be a function that takes each line, or an object with a debug(line) method such as console or a pino logger (got ${shown(logger)}).`,
    );
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value;
}

/** The request's context: the client's trace context from `params._meta`, read by the registered propagator, over the active one. */
function parentOf(api: OtelApi, meta: Readonly<Record<string, unknown>> | undefined): Context {
  const active = api.context.active();
  return meta ? api.propagation.extract(active, meta, metaGetter) : active;
}

/** Whether a tracer provider is registered: the API's global one is a proxy with no delegate until one is. */
function hasTracerProvider(api: OtelApi): boolean {
  const provider = api.trace.getTracerProvider();
  return !(provider instanceof api.ProxyTracerProvider) || provider.getDelegateTracer('@mcpflow/core') !== undefined;
}

/** Whether `context` holds a valid span context: a trace a run would continue even with no provider of its own. */
function hasSpanContext(api: OtelApi, context: Context): boolean {
  const spanContext = api.trace.getSpanContext(context);
  return spanContext !== undefined && api.isSpanContextValid(spanContext);
}
