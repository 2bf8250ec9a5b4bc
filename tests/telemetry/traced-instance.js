// A server instance of tests/pause/instance.js (protocol 2026-07-28 over stateless HTTP, shared
// state keys, add_project_task) that also traces, as an application would: a BasicTracerProvider
// exporting each span over OTLP/HTTP (JSON) to MCPFLOW_TEST_OTLP, and the W3C propagator. mcpflow
// is left with its defaults: the spans come because @opentelemetry/api is installed and a provider
// is registered. Plain JavaScript on the built packages, so the test spawns it with node.
const { propagation, trace } = require('@opentelemetry/api');
const { W3CTraceContextPropagator } = require('@opentelemetry/core');
const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http');
const { BasicTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');

const exporter = new OTLPTraceExporter({ url: process.env.MCPFLOW_TEST_OTLP });
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
propagation.setGlobalPropagator(new W3CTraceContextPropagator());

require('../pause/instance.js');
