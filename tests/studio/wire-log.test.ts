import { MAX_PENDING_IDS, WireLog } from '../../packages/studio/src/server/wire-log';
import { StudioRun } from '../../packages/studio/src/server/studio-run';

/**
 * The raw-message log's bound (issue 40, DESIGN §2.15): the ids it maps to runs (requests in
 * flight, progress tokens, server requests) are forgotten when answered, when cancelled, past
 * `MAX_PENDING_IDS` (a request never answered) and when the history evicts their run — so a
 * studio that runs for days holds no leftovers. Messages as the studio's client sends and receives them.
 */
function logOf(): { log: WireLog; as: (run: StudioRun | undefined, send: () => void) => void; kept: StudioRun[] } {
  let sending: StudioRun | undefined;
  const kept: StudioRun[] = [];
  const log = new WireLog({ sending: () => sending, asked: () => undefined, ofTask: () => undefined }, (run) => kept.push(run));
  return {
    log,
    kept,
    as: (run, send) => {
      sending = run;
      send();
      sending = undefined;
    },
  };
}

const request = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'slow', arguments: {}, _meta: { progressToken: `token-${id}` } },
});
const response = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [] } });

test('requests never answered: at most MAX_PENDING_IDS of each are remembered, the oldest forgotten first', () => {
  const { log, as, kept } = logOf();
  const run = new StudioRun('slow', 'tool', []);
  const sent = MAX_PENDING_IDS * 5;
  as(run, () => {
    for (let id = 0; id < sent; id += 1) log.record('sent', request(id));
  });
  // The requests and their progress tokens: each map at its bound.
  expect(log.pending()).toBe(2 * MAX_PENDING_IDS);
  // The newest is still the run's when it is answered; the oldest, forgotten, is no run's.
  log.record('received', response(sent - 1));
  expect(kept).toHaveLength(sent + 1);
  expect(JSON.parse(log.of(run).messages.at(-1)!.text)).toEqual(response(sent - 1));
  log.record('received', response(0));
  expect(kept).toHaveLength(sent + 1);
  expect(log.pending()).toBe(2 * MAX_PENDING_IDS - 2);
});

test('a cancelled request is forgotten (the server never answers it); an answered one too', () => {
  const { log, as, kept } = logOf();
  const run = new StudioRun('slow', 'tool', []);
  as(run, () => {
    log.record('sent', request(1));
    log.record('sent', request(2));
    log.record('sent', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'cancelled' } });
  });
  log.record('received', response(2));
  expect(log.pending()).toBe(0);
  // Every message so far was the run's, and each was told (the page's event stream hears of it).
  expect(kept).toHaveLength(4);
  expect(kept.every((each) => each === run)).toBe(true);
});

test('a run the history evicted: its ids are forgotten, its late messages are no run’s', () => {
  const { log, as } = logOf();
  const evicted = new StudioRun('slow', 'tool', []);
  const kept = new StudioRun('slow', 'tool', []);
  as(evicted, () => log.record('sent', request(1)));
  as(kept, () => log.record('sent', request(2)));
  log.prune((run) => run === kept);
  expect(log.pending()).toBe(2);
  log.record('received', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'token-1', progress: 1 } });
  log.record('received', response(1));
  expect(log.of(evicted).messages).toHaveLength(1);
  log.record('received', response(2));
  expect(log.of(kept).messages).toHaveLength(2);
  expect(log.pending()).toBe(0);
});

test("a run's raw messages count in its bytes, which the history's bound holds; a message dropped past the run's cap counts no more", () => {
  const { log, as } = logOf();
  const run = new StudioRun('slow', 'tool', []);
  const before = run.bytes;
  as(run, () => log.record('sent', request(1)));
  log.record('received', response(1));
  const texts = log.of(run).messages.map((message) => message.text.length);
  expect(run.bytes - before).toBe(texts[0] + texts[1]);
  // Past the run's cap the oldest messages go, and their bytes with them: the count stays the kept messages'.
  as(run, () => {
    for (let id = 2; id < 400; id += 1) log.record('sent', request(id));
  });
  const kept = log.of(run);
  expect(kept.dropped).toBeGreaterThan(0);
  expect(run.bytes - before).toBe(kept.messages.reduce((sum, message) => sum + message.text.length, 0));
});
