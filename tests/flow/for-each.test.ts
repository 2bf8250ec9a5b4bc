import 'reflect-metadata';
import { z } from 'zod';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { Bind, Step, TemplateBinding, Workflow, fromStep, item, not, present, promptArg } from '@mcpflow/decorators';
import type { ExecutionMeta, StepEvent, WorkflowServingOptions } from '@mcpflow/core';
import { MATRIX, messageText, type Line } from '../helpers/lines';

interface Issue {
  number: number;
  title: string;
  labels: string[];
  area: string;
}

@Workflow({
  name: 'triage',
  description: 'Triage open issues',
  arguments: { repo: z.string(), token: z.string() },
  sensitiveArguments: ['token'],
  instructions: ['You triage issues.'],
  resources: ['triage://policy'],
})
class Triage {
  @Step({ tool: 'list_issues', args: { repo: promptArg('repo') } })
  @Bind('issues')
  issues!: Issue[];

  @Step({
    tool: 'get_issue',
    forEach: fromStep('issues'),
    concurrency: 2,
    maxItems: 5,
    args: { number: item('number'), token: promptArg('token') },
    guidance: 'Fetching #{item.number}: {item.title}.',
    transform: (detail: { number: number; body: string }) => `#${detail.number}: ${detail.body}`,
  })
  @Bind('details')
  details!: string[];

  @Step({ resource: 'triage://guide/{area}', forEach: fromStep('issues'), when: not(present(item('labels'))) })
  @TemplateBinding('area', item('area'))
  @Bind('guides')
  guides!: string[];

  @Step({ tool: 'summarize', args: { details: fromStep('details'), guides: fromStep('guides') } })
  summary!: unknown;
}

const ISSUES: Issue[] = [
  { number: 1, title: 'Crash on start', labels: ['bug'], area: 'core' },
  { number: 2, title: 'Docs typo', labels: [], area: 'docs' },
  { number: 3, title: 'Slow build', labels: [], area: 'build' },
];

interface Options {
  issues?: Issue[];
  /** get_issue for this number throws. */
  failOn?: number;
  /** get_issue waits for this promise before answering. */
  gate?: (number: number, signal: AbortSignal) => Promise<void>;
  serverOptions?: WorkflowServingOptions;
}

function triageServer(line: Line, options: Options = {}) {
  const calls: number[] = [];
  const aborted: number[] = [];
  let inFlight = 0;
  const peak = { inFlight: 0 };
  const factory = () => {
    const server = new line.WorkflowServer({ name: 'triage', version: '1.0.0' }, options.serverOptions);
    server.registerResource('policy', 'triage://policy', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, text: 'Label every issue.' }],
    }));
    server.registerResource(
      'guide',
      new line.ResourceTemplate('triage://guide/{area}', { list: undefined }),
      { mimeType: 'text/plain' },
      async (uri, { area }) => ({
        contents: [{ uri: uri.href, text: `How to label ${area} issues` }],
      }),
    );
    server.registerTool('list_issues', { inputSchema: { repo: z.string() } }, async () => ({
      content: [{ type: 'text', text: JSON.stringify(options.issues ?? ISSUES) }],
    }));
    server.registerTool('get_issue', { inputSchema: { number: z.number(), token: z.string() } }, async ({ number, token }, context) => {
      const signal = line.signalOf(context);
      calls.push(number);
      inFlight += 1;
      peak.inFlight = Math.max(peak.inFlight, inFlight);
      let done = false;
      signal.addEventListener('abort', () => !done && aborted.push(number));
      try {
        await options.gate?.(number, signal);
        if (number === options.failOn) throw new Error(`issue ${number} is locked`);
        return { content: [{ type: 'text', text: JSON.stringify({ number, body: `body of ${number} (fetched with ${token})` }) }] };
      } finally {
        done = true;
        inFlight -= 1;
      }
    });
    server.registerTool(
      'summarize',
      { inputSchema: { details: z.array(z.string()), guides: z.array(z.string()) } },
      async ({ details, guides }) => ({
        content: [{ type: 'text', text: `${details.length} issues, ${guides.length} guides` }],
      }),
    );
    return server.use(Triage);
  };
  return { factory, calls, aborted, peak };
}

const meta = (result: { _meta?: Record<string, unknown> }) => result._meta?.['mcpflow/execution'] as ExecutionMeta;
const ARGS = { repo: 'acme/app', token: 's3cr3t-t0ken' };

describe.each(MATRIX)('forEach: $label', ({ line, transport }) => {
  test('runs once per element: item() in args, guidance and template bindings; when per element; the binding is the array of results', async () => {
    const { factory, calls } = triageServer(line);
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'triage', arguments: ARGS });
    expect(calls.sort()).toEqual([1, 2, 3]);
    expect(result.messages.map(messageText)).toEqual([
      'You triage issues.',
      '[resource triage://policy]',
      'Triage open issues\nArguments:\n- repo: acme/app\n- token: [redacted]',
      'Plan:\n1. issues: call tool list_issues\n2. details: call tool get_issue\n3. guides: read resource triage://guide/{area}\n4. summary: call tool summarize',
      'Calling tool list_issues with arguments: {"repo":"acme/app"}',
      `Result of list_issues:\n${JSON.stringify(ISSUES)}`,
      'Fetching #1: Crash on start.',
      'Calling tool get_issue with arguments: {"number":1,"token":"[redacted]"}',
      'Result of get_issue:\n{"number":1,"body":"body of 1 (fetched with [redacted])"}',
      'Fetching #2: Docs typo.',
      'Calling tool get_issue with arguments: {"number":2,"token":"[redacted]"}',
      'Result of get_issue:\n{"number":2,"body":"body of 2 (fetched with [redacted])"}',
      'Fetching #3: Slow build.',
      'Calling tool get_issue with arguments: {"number":3,"token":"[redacted]"}',
      'Result of get_issue:\n{"number":3,"body":"body of 3 (fetched with [redacted])"}',
      'Reading resource triage://guide/docs',
      '[resource triage://guide/docs]',
      'Reading resource triage://guide/build',
      '[resource triage://guide/build]',
      'Calling tool summarize with arguments: {"details":["#1: body of 1 (fetched with [redacted])","#2: body of 2 (fetched with [redacted])","#3: body of 3 (fetched with [redacted])"],"guides":["How to label docs issues","How to label build issues"]}',
      'Result of summarize:\n3 issues, 2 guides',
    ]);
    expect(result.messages[1].content).toEqual({ type: 'resource', resource: { uri: 'triage://policy', text: 'Label every issue.' } });
    expect(meta(result)).toEqual({
      status: 'completed',
      steps: [
        { name: 'issues', status: 'completed' },
        { name: 'details', status: 'completed', iterations: { count: 3, completed: 3, skipped: 0, failed: 0, cancelled: 0, failures: [] } },
        { name: 'guides', status: 'completed', iterations: { count: 3, completed: 2, skipped: 1, failed: 0, cancelled: 0, failures: [] } },
        { name: 'summary', status: 'completed' },
      ],
    });
    expect(JSON.stringify(result)).not.toContain('s3cr3t-t0ken');
    await client.close();
  });

  test('concurrency bounds the iterations in flight, and the trace keeps element order when they finish out of order', async () => {
    const issues = [5, 4, 3, 2, 1].map((number) => ({ number, title: `t${number}`, labels: ['x'], area: 'a' }));
    // Each iteration waits number × 5 ms: the later elements finish first.
    const { factory, peak } = triageServer(line, { issues, gate: (number) => new Promise((resolve) => setTimeout(resolve, number * 5)) });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'triage', arguments: ARGS });
    expect(peak.inFlight).toBe(2);
    const fetched = result.messages.map(messageText).filter((text) => text.startsWith('Fetching'));
    expect(fetched).toEqual(['Fetching #5: t5.', 'Fetching #4: t4.', 'Fetching #3: t3.', 'Fetching #2: t2.', 'Fetching #1: t1.']);
    await client.close();
  });

  test('an array longer than maxItems fails the step before any iteration runs', async () => {
    const issues = Array.from({ length: 6 }, (_, index) => ({ number: index + 1, title: 't', labels: [], area: 'a' }));
    const { factory, calls } = triageServer(line, { issues });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'triage', arguments: ARGS });
    expect(calls).toEqual([]);
    expect(meta(result)).toMatchObject({
      status: 'failed',
      stoppedAt: 'details',
      reason: 'forEach has 6 elements, more than its maxItems of 5; raise maxItems or read a shorter array',
    });
    expect(result.messages.map(messageText).at(-1)).toBe(
      "Step 'details' failed: forEach has 6 elements, more than its maxItems of 5; raise maxItems or read a shorter array. The workflow stopped here.",
    );
    await client.close();
  });

  test('a failing iteration stops the loop: the running one is cancelled, later ones never start; _meta names the failure', async () => {
    const issues = [1, 2, 3, 4].map((number) => ({ number, title: `t${number}`, labels: [], area: 'a' }));
    const hang = (signal: AbortSignal) =>
      new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
    const { factory, calls, aborted } = triageServer(line, {
      issues,
      failOn: 2,
      gate: (number, signal) => (number === 1 ? hang(signal) : Promise.resolve()),
    });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'triage', arguments: ARGS });
    expect(calls).toEqual([1, 2]);
    expect(aborted).toEqual([1]);
    expect(meta(result)).toEqual({
      status: 'failed',
      stoppedAt: 'details',
      reason: 'element 2 of 4: tool get_issue threw: issue 2 is locked',
      steps: [
        { name: 'issues', status: 'completed' },
        {
          name: 'details',
          status: 'failed',
          iterations: {
            count: 4,
            completed: 0,
            skipped: 0,
            failed: 1,
            cancelled: 1,
            failures: [
              { index: 0, status: 'cancelled', reason: 'the request was cancelled during tool get_issue' },
              { index: 1, status: 'failed', reason: 'tool get_issue threw: issue 2 is locked' },
            ],
          },
        },
        { name: 'guides', status: 'skipped' },
        { name: 'summary', status: 'skipped' },
      ],
    });
    await client.close();
  });

  test('an element the step cannot use hands off, naming the element, and the LLM is told what is left', async () => {
    const issues = [ISSUES[0], { title: 'No number', labels: [], area: 'docs' } as unknown as Issue];
    const { factory, calls } = triageServer(line, { issues });
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'triage', arguments: ARGS });
    expect(calls).toEqual([1]);
    expect(meta(result)).toMatchObject({
      status: 'handoff',
      stoppedAt: 'details',
      reason:
        "element 2 of 2: tool get_issue needs 'number' (item('number') is not in the element: the element is an object and has no 'number')",
    });
    expect(messageText(result.messages.at(-1)!)).toBe(
      "I cannot complete step 'details' on the server: element 2 of 2: tool get_issue needs 'number' (item('number') is not in the element: the element is an object and has no 'number').\n" +
        'The remaining steps are yours to complete, in order:\n' +
        '2. details: call tool get_issue\n' +
        '   Known arguments: {"token":"[redacted]"}\n' +
        "   Arguments still to resolve: number (from each element of the step's forEach array (its 'number'))\n" +
        '3. guides: read resource triage://guide/{area}\n' +
        "   URI variables still to resolve: {area} (from each element of the step's forEach array (its 'area'))\n" +
        '4. summary: call tool summarize\n' +
        "   Arguments still to resolve: details (from the result bound as 'details' by an earlier remaining step); guides (from the result bound as 'guides' by an earlier remaining step)\n" +
        'Use the guidance and resources above; call each tool yourself once its arguments are known.',
    );
    await client.close();
  });

  test('cancelling mid-loop aborts the running iterations, starts no more, and the server keeps serving', async () => {
    const issues = [1, 2, 3, 4, 5].map((number) => ({ number, title: `t${number}`, labels: [], area: 'a' }));
    let third!: () => void;
    const bothRunning = new Promise<void>((resolve) => (third = resolve));
    const events: StepEvent[] = [];
    const { factory, calls, aborted } = triageServer(line, {
      issues,
      serverOptions: { onStep: (event) => void events.push(event) },
      gate: (number, signal) => {
        // With concurrency 2: #1 answers at once, then #2 and #3 hang together.
        if (number === 3) third();
        return number >= 2
          ? new Promise<void>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))))
          : Promise.resolve();
      },
    });
    const client = await line.connect(factory, { transport });
    const controller = new AbortController();
    const pending = client.getPrompt({ name: 'triage', arguments: ARGS }, { signal: controller.signal });
    await bothRunning;
    controller.abort('user pressed stop');
    await expect(pending).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toEqual([1, 2, 3]);
    expect(aborted.sort()).toEqual([2, 3]);
    const loopEnd = events.find((event) => event.phase === 'end' && event.step === 'details' && event.iteration === undefined);
    expect(loopEnd).toMatchObject({ status: 'cancelled', reason: 'element 2 of 5: the request was cancelled during tool get_issue' });
    expect(events.filter((event) => event.step === 'guides')).toEqual([]);
    expect((await client.listPrompts()).prompts).toHaveLength(1);
    await client.close();
  });

  test('progress counts planned work: total grows to the elements of each loop', async () => {
    const { factory } = triageServer(line);
    const client = await line.connect(factory, { transport });
    const progress: Progress[] = [];
    await client.getPrompt({ name: 'triage', arguments: ARGS }, { onprogress: (update) => progress.push(update) });
    expect(progress.map((update) => [update.progress, update.total])).toEqual([
      [0.5, 4],
      [1, 4],
      [1.5, 4],
      [2, 6],
      [3, 6],
      [4, 6],
      [4.5, 6],
      [5, 8],
      [6, 8],
      [7, 8],
      [7.5, 8],
      [8, 8],
    ]);
    expect(progress[3].message).toBe('Finished item 1 of 3 of step 2 of 4: details');
    await client.close();
  });

  test("onStep's end of each element says how long that element ran", async () => {
    const events: StepEvent[] = [];
    const { factory } = triageServer(line, {
      serverOptions: { onStep: (event) => void events.push(event) },
      gate: () => new Promise<void>((resolve) => setTimeout(resolve, 30)),
    });
    const client = await line.connect(factory, { transport });
    await client.getPrompt({ name: 'triage', arguments: ARGS });
    const ends = events.filter((event) => event.phase === 'end' && event.step === 'details' && event.iteration !== undefined);
    expect(ends).toHaveLength(3);
    for (const end of ends) expect(end.phase === 'end' && end.durationMs).toBeGreaterThanOrEqual(25);
    await client.close();
  });

  test('onStep sees each iteration start and end inside the loop, with its element index', async () => {
    const events: StepEvent[] = [];
    const { factory } = triageServer(line, { serverOptions: { onStep: (event) => void events.push(event) } });
    const client = await line.connect(factory, { transport });
    await client.getPrompt({ name: 'triage', arguments: ARGS });
    const guides = events
      .filter((event) => event.step === 'guides')
      .map((event) => [event.phase, event.iteration?.index, event.phase === 'end' ? event.status : undefined]);
    expect(guides).toEqual([
      ['start', undefined, undefined],
      ['start', 0, undefined],
      ['end', 0, 'skipped'],
      ['start', 1, undefined],
      ['end', 1, 'completed'],
      ['start', 2, undefined],
      ['end', 2, 'completed'],
      ['end', undefined, 'completed'],
    ]);
    await client.close();
  });
});
