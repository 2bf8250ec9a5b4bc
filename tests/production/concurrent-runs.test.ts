import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, askUser, promptArg } from '@mcpflow/decorators';
import {
  DEFAULT_MAX_CONCURRENT_RUNS,
  DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION,
  type ExecutionMeta,
  type WorkflowServingOptions,
} from '@mcpflow/core';
import { LINES, MATRIX, SESSIONFUL, type Line, type TestClient, type TransportName } from '../helpers/lines';

/**
 * DESIGN §1 "Load limits" (issue 31.5): `maxConcurrentRuns` (per process) and
 * `maxConcurrentRunsPerSession` (per 2025 session) refuse a run over either before any step, with
 * a JSON-RPC error naming the option and its value; a freed place serves again. Bounded figures:
 * a cap of 2 and three slow runs, through each line's real client.
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

async function capped(line: Line, transport: TransportName, option: keyof WorkflowServingOptions, expected: string) {
  const started: string[] = [];
  let open!: () => void;
  const release = new Promise<void>((resolve) => (open = resolve));
  const client: TestClient = await line.connect(slowServer(line, { [option]: 2 }, started, release), { transport });
  try {
    const running = [
      client.getPrompt({ name: 'slow_copy', arguments: { file: 'a' } }),
      client.callTool({ name: 'slow_copy', arguments: { file: 'b' } }),
    ];
    await until(() => started.length === 2);
    expect(await refusal(client.getPrompt({ name: 'slow_copy', arguments: { file: 'c' } }))).toBe(expected);
    expect(await refusal(client.callTool({ name: 'slow_copy', arguments: { file: 'd' } }))).toBe(expected);
    expect(started).toEqual(['a', 'b']);
    open();
    const [prompt] = await Promise.all(running);
    expect(status(prompt as never)).toBe('completed');
    // A freed place serves again.
    expect(status((await client.getPrompt({ name: 'slow_copy', arguments: { file: 'e' } })) as never)).toBe('completed');
  } finally {
    open();
    await client.close();
  }
}

describe.each(MATRIX)('maxConcurrentRuns: $label', ({ line, transport }) => {
  test('a third run at a cap of 2 is refused before any step, naming the option; a freed place serves again', async () => {
    await capped(
      line,
      transport,
      'maxConcurrentRuns',
      '-32000 Refused: this server process already executes 2 workflow runs at once (maxConcurrentRuns: 2). ' +
        'Retry once one ends, or raise maxConcurrentRuns.',
    );
  });
});

describe.each(SESSIONFUL)('maxConcurrentRunsPerSession: $label', ({ line, transport }) => {
  test('a third run of one session at a cap of 2 is refused before any step, naming the option', async () => {
    await capped(
      line,
      transport,
      'maxConcurrentRunsPerSession',
      '-32000 Refused: this session already executes 2 workflow runs at once (maxConcurrentRunsPerSession: 2). ' +
        'Retry once one ends, or raise maxConcurrentRunsPerSession.',
    );
  });
});

describe.each(SESSIONFUL)('runs waiting for answers: $label', ({ line, transport }) => {
  test('by default 20 runs wait for answers and 16 more execute; the 17th executing run is refused naming maxConcurrentRunsPerSession', async () => {
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
      expect(await refusal(client.getPrompt({ name: 'slow_copy', arguments: { file: 'one more' } }))).toBe(
        '-32000 Refused: this session already executes 16 workflow runs at once (maxConcurrentRunsPerSession: 16). ' +
          'Retry once one ends, or raise maxConcurrentRunsPerSession.',
      );
      // Answered, the waiting runs go on (past the cap, briefly: they were admitted), and every run completes.
      for (const answer of answers) answer();
      open();
      const ended = [...(await waiting), ...(await executing)];
      expect(ended.map((run) => (run.status === 'fulfilled' ? status(run.value as never) : run.reason))).toEqual(
        Array(36).fill('completed'),
      );
    } finally {
      open();
      await client.close();
    }
  });
});

describe.each(LINES)('concurrent run options on $name', (line) => {
  test('the defaults are 256 runs per process and 16 per session', () => {
    expect([DEFAULT_MAX_CONCURRENT_RUNS, DEFAULT_MAX_CONCURRENT_RUNS_PER_SESSION]).toEqual([256, 16]);
  });

  test.each([
    ['maxConcurrentRuns', 0],
    ['maxConcurrentRuns', 2.5],
    ['maxConcurrentRunsPerSession', -1],
    ['maxConcurrentRunsPerSession', '16'],
  ])('%s: %p is refused when the server is made, naming the option', (option, value) => {
    expect(() => new line.WorkflowServer({ name: 'copies', version: '1.0.0' }, { [option]: value } as WorkflowServingOptions)).toThrow(
      expect.objectContaining({
        name: 'InvalidServerOptionError',
        message: expect.stringContaining(`WorkflowServer option ${option} must be`),
      }),
    );
  });
});
