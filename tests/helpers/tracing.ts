/**
 * A real OpenTelemetry SDK for the tests in this process: `BasicTracerProvider` (sdk-trace-base
 * 2.x) exporting to an `InMemorySpanExporter`, the W3C trace-context propagator and the
 * AsyncLocalStorage context manager — what an application registers (NodeSDK registers the same
 * propagator and context manager). Registered for a test file with `recordSpans()`; the servers the
 * test builds in process report to it.
 *
 *   const recorded = recordSpans();
 *   test('…', async () => {
 *     await client.getPrompt({ name: 'tour', arguments: { player: 'ada' } });
 *     const run = runSpan(recorded.spans(), 'prompts/get tour');
 *     expect(childrenOf(recorded.spans(), run).map((span) => span.name)).toEqual([…]);
 *   });
 */
import { context, propagation, trace, SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';

export type { ReadableSpan };

/** Registers the SDK before the file's tests and removes it after; each test starts with no span recorded. */
export function recordSpans(): { spans(): ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    context.setGlobalContextManager(contextManager.enable());
  });
  beforeEach(() => exporter.reset());
  afterAll(async () => {
    trace.disable();
    propagation.disable();
    context.disable();
    await provider.shutdown();
  });
  return { spans: () => exporter.getFinishedSpans() };
}

/** The one run span (`SERVER`) named `name`; throws, listing what was recorded, when there is not exactly one. */
export function runSpan(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.kind === SpanKind.SERVER && span.name === name);
  if (found.length !== 1) throw new Error(`expected one run span '${name}', recorded: ${spans.map((span) => span.name).join(', ')}`);
  return found[0];
}

/** The spans whose parent is `parent`, in the order they started. */
export function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans
    .filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
}

/** Resolves once `ready(spans())` holds (a run that ends after its client stopped waiting), or throws after 5 s. */
export async function spansWhen(spans: () => ReadableSpan[], ready: (spans: ReadableSpan[]) => boolean): Promise<ReadableSpan[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const recorded = spans();
    if (ready(recorded)) return recorded;
    if (Date.now() > deadline) throw new Error(`spans never got ready; recorded: ${recorded.map((span) => span.name).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What a span exposes to a backend, as one JSON-like value: name, attributes, events, status, links. */
export function exported(span: ReadableSpan): unknown {
  return {
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    status: span.status,
    links: span.links.map((link) => ({ context: link.context, attributes: link.attributes })),
  };
}
