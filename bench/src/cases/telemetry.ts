import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { WorkflowServer, type WorkflowServerOptions } from '@mcpflow/core/v1';
import type { BenchCase } from '../case';
import { sized } from '../run-options';
import { chainTool, chainWorkflow, inputSchema } from '../fixtures/chain';
import { inMemoryClient } from '../fixtures/servers-v1';
import { pairedRatio, sideBySide } from '../measure';
import { fmt, range, ratioFigure } from '../report';

const STEPS = 4;

/** The engine benchmark's 4-step chain on a 1.x WorkflowServer with `options`. */
function chainServer(options: WorkflowServerOptions): WorkflowServer {
  const server = new WorkflowServer({ name: 'bench-telemetry', version: '1.0.0' }, options);
  for (let index = 0; index < STEPS; index += 1)
    server.registerTool(`step_${index}`, { description: `Step ${index}`, inputSchema }, chainTool(index, 0));
  return server.use(chainWorkflow(STEPS));
}

/**
 * What tracing costs when nobody traces (DESIGN §2.11): the default configuration — spans on,
 * `@opentelemetry/api` installed (a devDependency here), no tracer provider registered — against
 * `telemetry: false`, side by side. The default starts one non-recording run span per run and
 * observes no step; the figure says that is within noise of not tracing at all.
 */
export const telemetry: BenchCase = {
  name: 'telemetry',
  async run(options) {
    // The configuration measured: the API is there, and no provider is registered.
    if (trace.getTracer('bench').startSpan('probe').isRecording())
      throw new Error('a tracer provider is registered: this case measures the default configuration without one');
    const request = { name: 'chain', arguments: { input: 'hello' } };
    const traced = await inMemoryClient(chainServer({}));
    const off = await inMemoryClient(chainServer({ telemetry: false }));
    const [a, b] = await Promise.all([traced.getPrompt(request), off.getPrompt(request)]);
    if (JSON.stringify(a.messages) !== JSON.stringify(b.messages)) throw new Error('telemetry changed the trace');
    const measured = await sideBySide(
      { traced: () => traced.getPrompt(request), off: () => off.getPrompt(request) },
      sized(options, { warmup: 2000, rounds: 60, batch: 250 }),
    );
    await Promise.all([traced.close(), off.close()]);
    const paired = pairedRatio(measured.traced, measured.off);
    const cpuPaired = pairedRatio(measured.traced, measured.off, 'cpu');
    return {
      result: { traced: measured.traced, off: measured.off, paired, cpuPaired },
      figures: [
        {
          benchmark: `13. telemetry with no tracer provider vs telemetry: false (${STEPS} steps, prompts/get, SDK 1.x in memory)`,
          figure: `${ratioFigure('default', measured.traced, 'off', measured.off)}; paired by round ${range(paired, '', 3)}; by CPU time ${fmt(cpuPaired.median, 3)}`,
          target: 'paired ratio ≤ 1.03 (within noise)',
          met: paired.median <= 1.03,
        },
      ],
    };
  },
};

/**
 * What tracing costs when someone traces (issue 31: value-free spans must not make a traced run
 * dearer): a tracer provider registered — `BasicTracerProvider`, every span sampled and recorded,
 * a span processor that exports nothing, so the figure is mcpflow's spans and not an exporter's —
 * against the same workflow with `telemetry: false`, side by side. Compare the ratio across
 * commits; the provider is removed again when the case ends.
 */
export const telemetryProvider: BenchCase = {
  name: 'telemetry-provider',
  async run(options) {
    const provider = new BasicTracerProvider({ spanProcessors: [DISCARD] });
    trace.setGlobalTracerProvider(provider);
    try {
      if (!trace.getTracer('bench').startSpan('probe').isRecording()) throw new Error('the tracer provider did not register');
      const request = { name: 'chain', arguments: { input: 'hello' } };
      const traced = await inMemoryClient(chainServer({}));
      const off = await inMemoryClient(chainServer({ telemetry: false }));
      const [a, b] = await Promise.all([traced.getPrompt(request), off.getPrompt(request)]);
      if (JSON.stringify(a.messages) !== JSON.stringify(b.messages)) throw new Error('telemetry changed the trace');
      const measured = await sideBySide(
        { traced: () => traced.getPrompt(request), off: () => off.getPrompt(request) },
        sized(options, { warmup: 2000, rounds: 60, batch: 250 }),
      );
      await Promise.all([traced.close(), off.close()]);
      const paired = pairedRatio(measured.traced, measured.off);
      const cpuPaired = pairedRatio(measured.traced, measured.off, 'cpu');
      return {
        result: { traced: measured.traced, off: measured.off, paired, cpuPaired },
        figures: [
          {
            benchmark: `13b. telemetry with a tracer provider registered (every span recorded, none exported) vs telemetry: false (${STEPS} steps, prompts/get, SDK 1.x in memory)`,
            figure: `${ratioFigure('traced', measured.traced, 'off', measured.off)}; paired by round ${range(paired, '', 3)}; by CPU time ${fmt(cpuPaired.median, 3)}`,
            target: 'reported (compare the paired ratio with the commit before)',
          },
        ],
      };
    } finally {
      trace.disable();
      await provider.shutdown();
    }
  },
};

/** A span processor that keeps nothing: spans are made and recorded, never exported. */
const DISCARD: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => undefined,
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};
