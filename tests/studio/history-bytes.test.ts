import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RunHistory } from '../../packages/studio/src/server/run-history';
import { StudioRun } from '../../packages/studio/src/server/studio-run';
import { WireLog } from '../../packages/studio/src/server/wire-log';

/**
 * The history's byte bound is a bound on the heap (issue 40: "the studio's own memory after 1,000
 * runs of 100 kB each stays within its bound"). Runs go through the studio's own pieces as a tool
 * run does — the request and the server's response on the raw-message log, the result's content
 * as the conversation — and the history evicts past `maxBytes`. What a run counts must cover what
 * it holds: its 16 KiB cut of a large message (not the whole message it was cut from), text past
 * Latin-1 at two bytes a character, and a step's input and output held as parsed objects.
 */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  for (let index = 0; index < 3; index += 1) gc();
  return process.memoryUsage().heapUsed;
}

const MAX_BYTES = 4 * 1024 * 1024;
const RUNS = 300;
const PAYLOAD_CHARS = 20_000;
const steps = [{ name: 'make', kind: 'tool' }] as never;
const execution = { status: 'completed', steps: [{ name: 'make', status: 'completed' }] };

/** What a run's server answers (run `id`), and the conversation the studio reads from it. */
interface Answer {
  readonly face: 'tool' | 'prompt';
  readonly result: (id: number) => unknown;
  readonly messages: (result: never) => unknown[];
}

/** A tool's result: `PAYLOAD_CHARS` of `fill` (a different text each run), its content blocks the conversation. */
const toolText = (fill: string): Answer => ({
  face: 'tool',
  result: (id) => ({ content: [{ type: 'text', text: `${id} `.padEnd(PAYLOAD_CHARS, fill) }], _meta: { 'mcpflow/execution': execution } }),
  messages: (result: { content: unknown[] }) => result.content.map((content) => ({ role: 'assistant', content })),
});

/** A prompt's trace whose step output is 1,300 small objects: the step panel's output, parsed from the trace, held as objects. */
const promptTrace: Answer = {
  face: 'prompt',
  result: (id) => ({
    messages: [
      'Plan:\n1. make: call tool make — the make tool',
      'Calling tool make with arguments: {}',
      `Result of make:\n${JSON.stringify(Array.from({ length: 1300 }, (_, index) => ({ i: index + id })))}`,
    ].map((text) => ({ role: 'assistant', content: { type: 'text', text } })),
    _meta: { 'mcpflow/execution': execution },
  }),
  messages: (result: { messages: unknown[] }) => result.messages,
};

/** A history and the raw-message log beside it, as the studio's `RunBook` holds them. */
function studioParts(): { history: RunHistory; wire: WireLog; sending: { run?: StudioRun } } {
  const sending: { run?: StudioRun } = {};
  const wire = new WireLog({ sending: () => sending.run, asked: () => undefined, ofTask: () => undefined });
  return { history: new RunHistory({ maxBytes: MAX_BYTES }), wire, sending };
}

/** `count` runs answered `answer`, kept by the history. */
function runAll({ history, wire, sending }: ReturnType<typeof studioParts>, answer: Answer, first: number, count: number): void {
  for (let id = first; id < first + count; id += 1) {
    const run = new StudioRun('payload', answer.face, steps);
    history.add(run);
    sending.run = run;
    wire.record('sent', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'payload', arguments: {} } });
    sending.run = undefined;
    // The response as the client parses it off the wire: its strings flat, the result's text shared with the run.
    const response = JSON.parse(JSON.stringify({ jsonrpc: '2.0', id, result: answer.result(id) })) as {
      result: { _meta: Record<string, unknown> };
    };
    wire.record('received', response);
    run.finish('completed', answer.messages(response.result as never) as never, response.result._meta['mcpflow/execution']);
    history.finished();
    wire.prune((each) => history.get(each.runId) === each);
  }
}

/** Runs on a history of their own (code compiled, shapes made), gone before the measure: in a call of its own, so no register of the test holds them. */
function warmUp(answer: Answer): void {
  runAll(studioParts(), answer, 0, 20);
}

test.each([
  ['tool runs of Latin-1 text (a message cut to 16 KiB)', toolText('x')],
  ['tool runs of text past Latin-1 (two bytes a character)', toolText('→')],
  ['prompt runs whose step output is parsed objects', promptTrace],
])('%s: the heap they hold is within what the history counts, and the count within maxBytes', (_, answer) => {
  warmUp(answer);
  const parts = studioParts();
  const { history, wire } = parts;
  const before = heapAfterGc();
  runAll(parts, answer, 1000, RUNS);
  const growth = heapAfterGc() - before;
  const counted = history.bytes();
  // The raw messages are held (as the studio's RunBook holds its log) until measured.
  expect(history.all().every((run) => wire.of(run).messages.length === 2)).toBe(true);
  expect(history.all().length).toBeLessThan(RUNS);
  expect(counted).toBeLessThanOrEqual(MAX_BYTES);
  expect({ growth, counted, covered: growth <= counted }).toEqual({ growth, counted, covered: true });
  expect(growth).toBeLessThanOrEqual(MAX_BYTES);
});
