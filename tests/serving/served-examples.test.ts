import { initialize, rawRequest } from './raw-http';
import { serveExample, type ServedExample } from './served-example';

/** The main example, served on each SDK line. */
const examples = [
  { line: 'SDK 1.x', script: 'code-review/server.js', sdk: ['--sdk', '1'] },
  { line: 'SDK 2.x', script: 'code-review/server.js', sdk: ['--sdk', '2'] },
];

/** Runs `count` requests, at most `concurrency` at a time (a bounded flood). */
async function flood<T>(count: number, concurrency: number, send: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let sent = 0; sent < count; sent += concurrency) {
    results.push(...(await Promise.all(Array.from({ length: Math.min(concurrency, count - sent) }, send))));
  }
  return results;
}

describe.each(examples)('the served example on $line', ({ line, script, sdk }) => {
  let served: ServedExample | undefined;
  afterEach(() => served?.stop());

  test('refuses a foreign Host and a foreign Origin, and serves a local client', async () => {
    served = await serveExample(script, sdk);
    const rebound = await initialize(served.url, { host: `attacker.example:${served.url.port}` });
    expect(rebound.status).toBe(403);
    const crossSite = await initialize(served.url, { origin: 'https://attacker.example' });
    expect(crossSite.status).toBe(403);
    expect((await initialize(served.url)).status).toBe(200);
  });

  test('a session flood stays within --max-sessions: each newcomer closes the idle session used least recently', async () => {
    served = await serveExample(script, [...sdk, '--max-sessions', '20']);
    const before = served.rssMiB();
    const answers = await flood(2000, 50, () => initialize(served!.url));
    expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
    const ids = answers.map((answer) => answer.headers['mcp-session-id'] as string);
    const end = (id: string) =>
      rawRequest(served!.url, { method: 'DELETE', headers: { 'mcp-session-id': id } }).then((answer) => answer.status);
    // Every session of the earlier batches was closed to make room; 20 of the last batch of 50 hold the pool.
    expect(await Promise.all([ids[0], ids[1949]].map(end))).toEqual([404, 404]);
    const lastBatch = await Promise.all(ids.slice(1950).map(end));
    expect(lastBatch.filter((status) => status === 200)).toHaveLength(20);
    console.info(
      `RSS of ${script} on ${line}: ${before.toFixed(1)} MiB before 2000 initialize requests, ${served.rssMiB().toFixed(1)} MiB after (cap 20 sessions)`,
    );
  });

  test('idle sessions are closed (--session-idle-timeout), which makes room for new ones', async () => {
    served = await serveExample(script, [...sdk, '--max-sessions', '5', '--session-idle-timeout', '300']);
    const opened = await flood(5, 5, () => initialize(served!.url));
    const ids = opened.map((answer) => answer.headers['mcp-session-id'] as string);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const stale = await Promise.all(ids.map((id) => rawRequest(served!.url, { method: 'DELETE', headers: { 'mcp-session-id': id } })));
    expect(stale.map((answer) => answer.status)).toEqual(ids.map(() => 404));
    const again = await flood(5, 5, () => initialize(served!.url));
    expect(again.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  });
});
