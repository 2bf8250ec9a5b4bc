import type { SpanContext } from '@opentelemetry/api';
import type { CarriedTraceContext } from '../../engine';
import type { OtelApi } from './otel-api';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * A span's context in W3C form, for a paused run's sealed state to carry: `traceparent` (version
 * 00) and, when it has one, `tracestate`. Nothing for an invalid context (no trace to continue).
 *
 * @example
 * ```ts
 * carryTraceContext(api, span.spanContext()); // { traceparent: '00-4bf9…-00f0…-01' }
 * ```
 */
export function carryTraceContext(api: OtelApi, spanContext: SpanContext): CarriedTraceContext | undefined {
  if (!api.isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  const traceparent = `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
  const tracestate = spanContext.traceState?.serialize();
  return tracestate ? { traceparent, tracestate } : { traceparent };
}

/**
 * The span context a sealed state carried, to continue its trace: remote (it was made by another
 * request, maybe another process). Nothing when it does not read as one.
 *
 * @example
 * ```ts
 * const parent = carriedSpanContext(api, state.traceContext);
 * ```
 */
export function carriedSpanContext(api: OtelApi, carried: CarriedTraceContext): SpanContext | undefined {
  const match = TRACEPARENT.exec(carried.traceparent);
  if (!match) return undefined;
  const spanContext: SpanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: Number.parseInt(match[3], 16),
    isRemote: true,
    traceState: carried.tracestate ? api.createTraceState(carried.tracestate) : undefined,
  };
  return api.isSpanContextValid(spanContext) ? spanContext : undefined;
}
