import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, askUser, promptArg } from '@mcpflow/decorators';
import {
  DEFAULT_MAX_CONCURRENT_RUNS,
  DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION,
  DEFAULT_MAX_QUEUED_RUNS,
  DEFAULT_QUEUE_TIMEOUT_MS,
  type ExecutionMeta,
  type WorkflowServingOptions,
} from '@mcpflow/core';
import { IN_MEMORY, LINES, MATRIX, SESSIONFUL, type Line, type TestClient, type TransportName } from '../helpers/lines';

/**
 * DESIGN §1 "Load limits" (issues 31.5, 38.5): a run over `maxConcurrentRuns` (per process) or
 * `maxConcurrentRunsPerSession` (per 2025 session) waits for a place, first come first served in
 * its session and in turn across sessions; it is refused before any step, with a JSON-RPC error
 * naming the option, only past `maxQueuedRuns` or after `queueTimeoutMs`. Through each line's real client.
 */

@Workflow({ name: 'slow_copy', arguments: { file: z.string() }, expose: { tool: true } })
class SlowCopy {
  @Step({ tool: 'copy', args: { file: promptArg('file') } })
  copied!: unknown;
}

/** A workflow that asks in place (on a 2025 session) before its step: its run waits for the answer. */
@Workflow({ name: 'confirm_copy', arguments: { file: z.string() } })
class ConfirmCopy {
  @Step({ tool: 'copy', args: { file: askUser('Which copy of {file}?') } })
  copied!: unknown;
}

/** A server whose `copy` tool waits until the test releases it, counting the calls that started. */
function slowServer(line: Line, options: WorkflowServingOptions, started: string[], release: Promise<void>) {
  return () => {
    const server = new line.WorkflowServer({ name: 'copies', version: '1.0.0' }, options);
    server.registerTool('copy', { inputSchema: { file: z.string() } }, async ({ file }) => {
      started.push(file);
      await release;
      return { content: [{ type: 'text', text: `copied ${file}` }] };
    });
    return server.use(SlowCopy, ConfirmCopy);
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The protocol error a refused request rejects with, without the prefix each client library adds. */
async function refusal(run: Promise<unknown>): Promise<string> {
  const error = (await run.then(
    () => ({ code: 0, message: 'not refused' }),
    (thrown: unknown) => thrown,
  )) as { code: number; message: string };
  return `${error.code} ${error.message.replace(/^(MCP error -?\d+: )+/, '')}`;
}

const status = (result: { _meta?: Record<string, unknown> }) => (result._meta?.['mcpflow/execution'] as ExecutionMeta).status;

/** A gate per tool call: the test opens each call's gate when it chooses. */
function gates() {
  const opened = new Map<string, () => void>();
  const waiting = new Map<string, Promise<void>>();
  return {
    wait(file: string): Promise<void> {
      let gate = waiting.get(file);
      if (!gate) {
        gate = new Promise<void>((resolve) => opened.set(file, resolve));
        waiting.set(file, gate);
      }
      return gate;
    },
    open(file: string): void {
      void this.wait(file);
      opened.get(file)!();
    },
  };
}

async function queued(line: Line, transport: TransportName, options: WorkflowServingOptions, expected: string) {
  const started: string[] = [];
  let open!: () => void;
  const release = new Promise<void>((resolve) => (open = resolve));
  const client: TestClient = await line.connect(slowServer(line, options, started, release), { transport });
  try {
    const running = [
      client.getPrompt({ name: 'slow_copy', arguments: { file: 'a' } }),
      client.callTool({ name: 'slow_copy', arguments: { file: 'b' } }),
    ];
    await until(() => started.length === 2);
    // The third waits for a place instead of being refused; the fourth finds the queue full.
    const third = client.getPrompt({ name: 'slow_copy', arguments: { file: 'c' } });
    expect(await refusal(client.callTool({ name: 'slow_copy', arguments: { file: 'd' } }))).toBe(expected);
    expect(started).toEqual(['a', 'b']);
    open();
    const [prompt, , waited] = await Promise.all([...running, third]);
    expect([status(prompt as never), status(waited as never)]).toEqual(['completed', 'completed']);
    expect(started).toEqual(['a', 'b', 'c']);
    // A freed place serves again.
    expect(status((await client.getPrompt({ name: 'slow_copy', arguments: { file: 'e' } })) as never)).toBe('completed');
  } finally {
    open();
    await client.close();
  }
}

describe.each(MATRIX)('maxConcurrentRuns: $label', ({ line, transport }) => {
  test('a third run at a cap of 2 waits for a place and completes; past maxQueuedRuns a run is refused before any step, naming it', async () => {
    await queued(
      line,
      transport,
      { maxConcurrentRuns: 2, maxQueuedRuns: 1 },
      '-32000 Refused: 1 workflow runs already wait in this server process (maxQueuedRuns: 1) for a place among the 2 it executes ' +
        'at once (maxConcurrentRuns). Retry later, or raise maxQueuedRuns.',
    );
  });

  test('a run that waits queueTimeoutMs for a place is refused before any step, naming the option', async () => {
    const started: string[] = [];
    let open!: () => void;
    const release = new Promise<void>((resolve) => (open = resolve));
    const client = await line.connect(slowServer(line, { maxConcurrentRuns: 1, queueTimeoutMs: 50 }, started, release), { transport });
    try {
      const first = client.getPrompt({ name: 'slow_copy', arguments: { file: 'a' } });
      await until(() => started.length === 1);
      expect(await refusal(client.getPrompt({ name: 'slow_copy', arguments: { file: 'b' } }))).toBe(
        '-32000 Refused: this run waited 50 ms (queueTimeoutMs) for a place among the 1 workflow runs this server process executes ' +
          'at once (maxConcurrentRuns), and none freed. Retry later, or raise queueTimeoutMs or maxConcurrentRuns.',
      );
      open();
      expect(status((await first) as never)).toBe('completed');
      expect(started).toEqual(['a']);
    } finally {
      open();
      await client.close();
    }
  });
});

describe.each(SESSIONFUL)('maxConcurrentRunsPerSession: $label', ({ line, transport }) => {
  test('a third run of one session at a cap of 2 waits; past its tenth of maxQueuedRuns a run is refused, naming the option', async () => {
    await queued(
      line,
      transport,
      { maxConcurrentRunsPerSession: 2, maxQueuedRuns: 10 },
      '-32000 Refused: 1 workflow runs of this session already wait (a tenth of maxQueuedRuns: 10) for a place among the 2 it ' +
        'executes at once (maxConcurrentRunsPerSession). Retry once some end, or raise maxQueuedRuns.',
    );
  });

  test('100 prompts at once from one session, with the defaults, are all answered: 16 execute, the rest wait their turn', async () => {
    const started: string[] = [];
    let open!: () => void;
    const release = new Promise<void>((resolve) => (open = resolve));
    const client = await line.connect(slowServer(line, {}, started, release), { transport });
    try {
      const prompts = Array.from({ length: 100 }, (_, index) => client.getPrompt({ name: 'slow_copy', arguments: { file: `f${index}` } }));
      await until(() => started.length === 16);
      // 84 wait; none is refused, and none starts past the per-session cap.
      open();
      const answered = await Promise.allSettled(prompts);
      expect(answered.map((run) => (run.status === 'fulfilled' ? status(run.value as never) : String(run.reason)))).toEqual(
        Array(100).fill('completed'),
      );
      expect(started.slice(0, 16).sort()).toEqual(Array.from({ length: 16 }, (_, index) => `f${index}`).sort());
      // First come, first served within the session.
      expect(started).toEqual(Array.from({ length: 100 }, (_, index) => `f${index}`));
    } finally {
      open();
      await client.close();
    }
  });
});

describe.each(IN_MEMORY)('a cancelled request leaves the queue: $label', ({ line }) => {
  test('a waiting run whose request is cancelled never starts, and frees its place in the queue', async () => {
    const started: string[] = [];
    let open!: () => void;
    const release = new Promise<void>((resolve) => (open = resolve));
    const client = await line.connect(slowServer(line, { maxConcurrentRuns: 1, maxQueuedRuns: 1 }, started, release));
    try {
      const first = client.getPrompt({ name: 'slow_copy', arguments: { file: 'a' } });
      await until(() => started.length === 1);
      const cancelling = new AbortController();
      const cancelled = client.getPrompt({ name: 'slow_copy', arguments: { file: 'b' } }, { signal: cancelling.signal });
      // Its request has reached the server (the ping after it was answered): it waits in the queue.
      await client.ping();
      cancelling.abort('the user gave up');
      await expect(cancelled).rejects.toBeDefined();
      // The queue holds one run: were the cancelled one still in it, this one would be refused naming maxQueuedRuns.
      const third = client.getPrompt({ name: 'slow_copy', arguments: { file: 'c' } });
      open();
      expect([status((await first) as never), status((await third) as never)]).toEqual(['completed', 'completed']);
      expect(started).toEqual(['a', 'c']);
    } finally {
      open();
      await client.close();
    }
  });
});

describe.each(IN_MEMORY)('fair across sessions: $label', ({ line }) => {
  test("a second session's run is not stuck behind the first session's 100 waiting runs", async () => {
    const started: string[] = [];
    const gate = gates();
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'copies', version: '1.0.0' }, { maxConcurrentRuns: 2 });
      server.registerTool('copy', { inputSchema: { file: z.string() } }, async ({ file }) => {
        started.push(file);
        await gate.wait(file);
        return { content: [{ type: 'text', text: `copied ${file}` }] };
      });
      return server.use(SlowCopy);
    };
    const [first, second] = [await line.connect(factory), await line.connect(factory)];
    try {
      const many = Promise.allSettled(
        Array.from({ length: 100 }, (_, index) => first.getPrompt({ name: 'slow_copy', arguments: { file: `a${index}` } })),
      );
      await until(() => started.length === 2);
      const other = Promise.allSettled([second.getPrompt({ name: 'slow_copy', arguments: { file: 'b' } })]);
      // Its request has reached the server (the ping after it was answered) and waits in its own session's queue.
      await second.ping();
      // Places go to the sessions in turn: the first session's oldest waiting run (it came first), then the other's.
      gate.open('a0');
      await until(() => started.length === 3);
      gate.open('a1');
      await until(() => started.length === 4);
      expect(started).toEqual(['a0', 'a1', 'a2', 'b']);
      gate.open('b');
      expect((await other).map((run) => (run.status === 'fulfilled' ? status(run.value as never) : String(run.reason)))).toEqual([
        'completed',
      ]);
      for (let index = 1; index < 100; index++) gate.open(`a${index}`);
      expect((await many).map((run) => (run.status === 'fulfilled' ? status(run.value as never) : String(run.reason)))).toEqual(
        Array(100).fill('completed'),
      );
    } finally {
      for (let index = 0; index < 100; index++) gate.open(`a${index}`);
      gate.open('b');
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe.each(SESSIONFUL)('runs waiting for answers: $label', ({ line, transport }) => {
  test('by default 20 runs wait for answers and 16 more execute; the 17th executing run waits for a place, not refused', async () => {
    const started: string[] = [];
    let open!: () => void;
    const release = new Promise<void>((resolve) => (open = resolve));
    const answers: (() => void)[] = [];
    const elicit = ({ requestedSchema }: { requestedSchema: { required: string[] } }) =>
      new Promise((resolve) => answers.push(() => resolve({ action: 'accept', content: { [requestedSchema.required[0]]: 'the copy' } })));
    const client = await line.connect(slowServer(line, {}, started, release), { transport, elicit: elicit as never });
    try {
      // Waiting runs do not count under the run caps (DESIGN §1): the ask caps bound them.
      const waiting = Promise.allSettled(
        Array.from({ length: 20 }, (_, index) => client.getPrompt({ name: 'confirm_copy', arguments: { file: `w${index}` } })),
      );
      await until(() => answers.length === 20);
      const executing = Promise.allSettled(
        Array.from({ length: 16 }, (_, index) => client.getPrompt({ name: 'slow_copy', arguments: { file: `x${index}` } })),
      );
      await until(() => started.length === 16);
      const oneMore = client.getPrompt({ name: 'slow_copy', arguments: { file: 'one more' } });
      // Answered, the waiting runs go on (past the cap, briefly: they were admitted), and every run completes.
      for (const answer of answers) answer();
      open();
      const ended = [...(await waiting), ...(await executing), ...(await Promise.allSettled([oneMore]))];
      expect(ended.map((run) => (run.status === 'fulfilled' ? status(run.value as never) : run.reason))).toEqual(
        Array(37).fill('completed'),
      );
      expect(started).toContain('one more');
    } finally {
      open();
      await client.close();
    }
  });
});

describe.each(LINES)('concurrent run options on $name', (line) => {
  test('the defaults are 256 runs per process, 16 per session, 1,000 waiting and 30 s of waiting', () => {
    expect([
      DEFAULT_MAX_CONCURRENT_RUNS,
      DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION,
      DEFAULT_MAX_QUEUED_RUNS,
      DEFAULT_QUEUE_TIMEOUT_MS,
    ]).toEqual([256, 16, 1000, 30_000]);
  });

  test.each([
    ['maxConcurrentRuns', 0],
    ['maxConcurrentRuns', 2.5],
    ['maxConcurrentRunsPerSession', -1],
    ['maxConcurrentRunsPerSession', '16'],
    ['maxQueuedRuns', -1],
    ['maxQueuedRuns', 1.5],
    ['maxQueuedRuns', '1000'],
    ['queueTimeoutMs', 0],
    ['queueTimeoutMs', Number.POSITIVE_INFINITY],
    ['queueTimeoutMs', '30000'],
  ])('%s: %p is refused when the server is made, naming the option', (option, value) => {
    expect(() => new line.WorkflowServer({ name: 'copies', version: '1.0.0' }, { [option]: value } as WorkflowServingOptions)).toThrow(
      expect.objectContaining({
        name: 'InvalidServerOptionError',
        message: expect.stringContaining(`WorkflowServer option ${option} must be`),
      }),
    );
  });
});
