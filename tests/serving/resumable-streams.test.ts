import { z } from 'zod';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import * as v1 from '@mcpflow/core/v1';
import * as v2 from '@mcpflow/core/v2';

/** What the tool below tells and answers: a progress update and a result, both sent after its stream was cut. */
const AFTER_THE_CUT = { progress: 'built after the drop', result: 'report ready' };

/** A 1.x server whose `build_report` cuts its own SSE stream mid-call (as a proxy timing out would), then goes on. */
function reportServerV1(): v1.WorkflowServer {
  const server = new v1.WorkflowServer({ name: 'reports', version: '1.0.0' });
  server.registerTool('build_report', { inputSchema: {} }, async (_args, extra) => {
    if (!extra.closeSSEStream) throw new Error('this session keeps no SSE events: its stream cannot be resumed');
    extra.closeSSEStream();
    const progressToken = extra._meta?.progressToken;
    if (progressToken !== undefined)
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken, progress: 1, message: AFTER_THE_CUT.progress },
      });
    return { content: [{ type: 'text', text: AFTER_THE_CUT.result }] };
  });
  return server;
}

/** The same tool on a 2.x server. */
function reportServerV2(): v2.WorkflowServer {
  const server = new v2.WorkflowServer({ name: 'reports', version: '1.0.0' });
  server.registerTool('build_report', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const closeSSE = ctx.http?.closeSSE;
    if (!closeSSE) throw new Error('this session keeps no SSE events: its stream cannot be resumed');
    closeSSE();
    const progressToken = ctx.mcpReq._meta?.progressToken;
    if (progressToken !== undefined)
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken, progress: 1, message: AFTER_THE_CUT.progress },
      });
    return { content: [{ type: 'text', text: AFTER_THE_CUT.result }] };
  });
  return server;
}

interface CallOutcome {
  text: string;
  progress: string[];
}

interface ResumableLine {
  name: string;
  serve(options: v1.HttpServingOptions): Promise<v1.HttpServing>;
  /** A 2025 client of the line calls `build_report` over HTTP, with progress, and closes. */
  call(url: URL): Promise<CallOutcome>;
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content ?? []).map((part) => part.text ?? '').join('');
}

const lines: ResumableLine[] = [
  {
    name: 'SDK 1.x',
    serve: (options) => v1.serveHttp(reportServerV1, options),
    async call(url) {
      const client = new ClientV1({ name: 'resume-test', version: '1.0.0' });
      await client.connect(new HttpTransportV1(url));
      const progress: string[] = [];
      const result = await client.callTool({ name: 'build_report', arguments: {} }, undefined, {
        onprogress: (update) => progress.push(update.message ?? ''),
      });
      await client.close();
      return { text: textOf(result), progress };
    },
  },
  {
    name: 'SDK 2.x',
    serve: (options) => v2.serveHttp(reportServerV2, options),
    async call(url) {
      const client = new ClientV2({ name: 'resume-test', version: '1.0.0' });
      await client.connect(new HttpTransportV2(url));
      const progress: string[] = [];
      const result = await client.callTool(
        { name: 'build_report', arguments: {} },
        { onprogress: (update) => progress.push(update.message ?? '') },
      );
      await client.close();
      return { text: textOf(result), progress };
    },
  },
];

describe.each(lines)('resumable SSE streams on $name', (line) => {
  let serving: v1.HttpServing | undefined;
  afterEach(async () => {
    await serving?.close();
    serving = undefined;
  });

  test('a 2025 client whose stream is cut mid-call reconnects with Last-Event-ID and gets the progress and result it missed', async () => {
    serving = await line.serve({ port: 0 });
    expect(await line.call(serving.url)).toEqual({ text: AFTER_THE_CUT.result, progress: [AFTER_THE_CUT.progress] });
  });

  test('a bounded memory store of your own, per session, serves the reconnect the same way', async () => {
    let stores = 0;
    serving = await line.serve({
      port: 0,
      eventStore: () => {
        stores += 1;
        return v2.memoryEventStore({ maxEvents: 10 });
      },
    });
    expect(await line.call(serving.url)).toEqual({ text: AFTER_THE_CUT.result, progress: [AFTER_THE_CUT.progress] });
    expect(stores).toBe(1);
  });
});

describe('memoryEventStore', () => {
  test('replays only the events of the reconnecting stream after the last one seen, and forgets the oldest beyond its bounds', async () => {
    const store = v2.memoryEventStore({ maxEvents: 3 });
    const first = await store.storeEvent('post-1', { n: 1 });
    await store.storeEvent('get', { n: 2 });
    await store.storeEvent('post-1', { n: 3 });
    const replayed: unknown[] = [];
    const send = async (_id: string, message: never) => void replayed.push(message);
    expect(await store.replayEventsAfter(first, { send })).toBe('post-1');
    expect(replayed).toEqual([{ n: 3 }]);
    await store.storeEvent('post-1', { n: 4 });
    expect(await store.getStreamIdForEventId?.(first)).toBeUndefined();
  });
});
