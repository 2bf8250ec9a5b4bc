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
 * it holds: its 16 KiB cut of a large message (not the whole message it was cut from), and text
 * past Latin-1 at two bytes a character.
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

/** A history and the raw-message log beside it, as the studio's `RunBook` holds them. */
function studioParts(): { history: RunHistory; wire: WireLog; sending: { run?: StudioRun } } {
  const sending: { run?: StudioRun } = {};
  const wire = new WireLog({ sending: () => sending.run, asked: () => undefined, ofTask: () => undefined });
  return { history: new RunHistory({ maxBytes: MAX_BYTES }), wire, sending };
}

/** `count` tool runs of a payload of `PAYLOAD_CHARS` of `fill` (a different text each), kept by the history. */
function runAll({ history, wire, sending }: ReturnType<typeof studioParts>, fill: string, first: number, count: number): void {
  for (let id = first; id < first + count; id += 1) {
    const run = new StudioRun('payload', 'tool', steps);
    history.add(run);
    sending.run = run;
    wire.record('sent', { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'payload', arguments: {} } });
    sending.run = undefined;
    // The response as the client parses it off the wire: its strings flat, the result's text shared with the run.
    const text = `${id} `.padEnd(PAYLOAD_CHARS, fill);
    const execution = { status: 'completed', steps: [{ name: 'make', status: 'completed' }] };
    const response = JSON.parse(
      JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], _meta: { 'mcpflow/execution': execution } } }),
    ) as { result: { content: unknown[]; _meta: Record<string, unknown> } };
    wire.record('received', response);
    const messages = response.result.content.map((content) => ({ role: 'assistant' as const, content }));
    run.finish('completed', messages as never, response.result._meta['mcpflow/execution']);
    history.finished();
    wire.prune((each) => history.get(each.runId) === each);
  }
}

/** Runs on a history of their own (code compiled, shapes made), gone before the measure: in a call of its own, so no register of the test holds them. */
function warmUp(fill: string): void {
  runAll(studioParts(), fill, 0, 20);
}

test.each([
  ['Latin-1 text (a message cut to 16 KiB)', 'x'],
  ['text past Latin-1 (two bytes a character)', '→'],
])('runs of %s: the heap they hold is within what the history counts, and the count within maxBytes', (_, fill) => {
  warmUp(fill);
  const parts = studioParts();
  const { history, wire } = parts;
  const before = heapAfterGc();
  runAll(parts, fill, 1000, RUNS);
  const growth = heapAfterGc() - before;
  const counted = history.bytes();
  // The raw messages are held (as the studio's RunBook holds its log) until measured.
  expect(history.all().every((run) => wire.of(run).messages.length === 2)).toBe(true);
  expect(history.all().length).toBeLessThan(RUNS);
  expect(counted).toBeLessThanOrEqual(MAX_BYTES);
  expect({ growth, counted, covered: growth <= counted }).toEqual({ growth, counted, covered: true });
  expect(growth).toBeLessThanOrEqual(MAX_BYTES);
});
