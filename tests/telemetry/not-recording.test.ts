import 'reflect-metadata';
import { z } from 'zod';
import { trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { AlwaysOffSampler, BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { Bind, Step, Workflow, field, item, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta } from '@mcpflow/core';
import { IN_MEMORY, type Line } from '../helpers/lines';

/**
 * When the run span does not record — no tracer provider registered, or this run not sampled —
 * the engine observes no step: not one span object per step. A provider that samples nothing
 * stands in for "none registered" here, because it lets the test count the spans started.
 */
const started: string[] = [];
const sdk = new BasicTracerProvider({ sampler: new AlwaysOffSampler() });
const counting: TracerProvider = {
  getTracer(name, version, options) {
    const tracer = sdk.getTracer(name, version, options);
    return {
      startSpan(spanName, spanOptions, context) {
        started.push(spanName);
        return tracer.startSpan(spanName, spanOptions, context);
      },
      startActiveSpan: tracer.startActiveSpan.bind(tracer),
    } as Tracer;
  },
};
beforeAll(() => trace.setGlobalTracerProvider(counting));
afterAll(() => trace.disable());

@Workflow({ name: 'survey', arguments: { area: z.string() } })
class Survey {
  @Step({ tool: 'list_sites', args: { area: promptArg('area') } })
  @Bind('sites')
  sites!: { names: string[] };

  @Step({ tool: 'inspect', args: { site: item() }, forEach: field('sites', 'names') })
  @Bind('reports')
  reports!: unknown[];
}

function surveyServer(line: Line) {
  return () => {
    const server = new line.WorkflowServer({ name: 'survey', version: '1.0.0' });
    server.registerTool('list_sites', { inputSchema: { area: z.string() } }, async () => ({
      content: [{ type: 'text', text: JSON.stringify({ names: ['north', 'south', 'east'] }) }],
    }));
    server.registerTool('inspect', { inputSchema: { site: z.string() } }, async ({ site }) => ({
      content: [{ type: 'text', text: JSON.stringify({ site, ok: true }) }],
    }));
    return server.use(Survey);
  };
}

describe.each(IN_MEMORY)('$label', ({ line, transport }) => {
  test('a run whose span does not record starts that one span, and none for its steps or the elements of its loop', async () => {
    started.length = 0;
    const client = await line.connect(surveyServer(line), { transport });
    const result = await client.getPrompt({ name: 'survey', arguments: { area: 'harbour' } });
    await client.close();
    expect((result._meta?.['mcpflow/execution'] as ExecutionMeta).status).toBe('completed');
    expect(started).toEqual(['prompts/get survey']);
  });
});
