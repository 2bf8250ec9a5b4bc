import fc from 'fast-check';
import { ExpiryQueue } from '../src/adapter-kit/pause/expiry-queue';
import { MemoryReplayGuard, memoryReplayGuard } from '../src/adapter-kit/pause/memory-replay-guard';
import { ReplayGuardError } from '../src/engine/sealing/replay-guard-error';

const round = (runId: string, roundNumber = 1, ttlMs = 600_000) => ({ runId, round: roundNumber, ttlMs });

describe('memoryReplayGuard', () => {
  test('the first resume of a round consumes it; a replay of that round is told apart, other rounds and runs are not', async () => {
    const guard = new MemoryReplayGuard();
    expect(await guard.consume(round('run-a', 1))).toBe('first');
    expect(await guard.consume(round('run-a', 1))).toBe('replayed');
    expect(await guard.consume(round('run-a', 2))).toBe('first');
    expect(await guard.consume(round('run-b', 1))).toBe('first');
    expect(await guard.consume(round('run-a', 1, 5))).toBe('replayed');
  });

  test('concurrent resumes of one round: exactly one is first', async () => {
    const guard = new MemoryReplayGuard();
    const verdicts = await Promise.all(Array.from({ length: 50 }, () => guard.consume(round('run-race'))));
    expect(verdicts.filter((verdict) => verdict === 'first')).toHaveLength(1);
  });

  test('a round is remembered for its state’s remaining lifetime, then forgotten as new rounds come', async () => {
    let now = 1_000_000;
    const guard = new MemoryReplayGuard(1000, () => now);
    expect(await guard.consume(round('short', 1, 100))).toBe('first');
    expect(await guard.consume(round('long', 1, 10_000))).toBe('first');
    now += 100;
    expect(await guard.consume(round('short', 1, 100))).toBe('replayed');
    now += 1;
    expect(await guard.consume(round('other', 1, 10_000))).toBe('first');
    expect(guard.size).toBe(2);
    expect(await guard.consume(round('long', 1, 10_000))).toBe('replayed');
    now += 10_001;
    expect(await guard.consume(round('late', 1, 10))).toBe('first');
    expect(guard.size).toBe(1);
  });

  test('memory stays bounded: rounds whose states expired do not pile up', async () => {
    let now = 0;
    const guard = new MemoryReplayGuard(500, () => now);
    for (let index = 0; index < 20_000; index += 1) {
      now += 1;
      expect(await guard.consume(round(`run-${index}`, 1, 100 + (index % 200)))).toBe('first');
    }
    expect(guard.size).toBeLessThanOrEqual(300);
  });

  test('when full, a new round is refused with an error naming the option — none of the remembered rounds is forgotten', async () => {
    let now = 0;
    const guard = new MemoryReplayGuard(3, () => now);
    for (const id of ['a', 'b', 'c']) expect(await guard.consume(round(id, 1, 1_000 + id.charCodeAt(0)))).toBe('first');
    const refused = guard.consume(round('d'));
    await expect(refused).rejects.toBeInstanceOf(ReplayGuardError);
    await expect(refused).rejects.toMatchObject({
      problem: 'full',
      message: expect.stringContaining('already remembers 3 resumed rounds whose states have not expired (memoryReplayGuard maxEntries)'),
    });
    for (const id of ['a', 'b', 'c']) expect(await guard.consume(round(id))).toBe('replayed');
    now += 1_000 + 'a'.charCodeAt(0) + 1;
    expect(await guard.consume(round('d'))).toBe('first');
    expect(await guard.consume(round('b'))).toBe('replayed');
  });

  test('a client holds at most maxEntriesPerClient rounds: at its quota only it is refused, naming the option, until its rounds expire', async () => {
    let now = 0;
    const guard = new MemoryReplayGuard(100, () => now, 2);
    const from = (runId: string, client?: string) => ({ ...round(runId, 1, 1_000), client });
    expect(await guard.consume(from('a1', 'address:192.0.2.1'))).toBe('first');
    expect(await guard.consume(from('a2', 'address:192.0.2.1'))).toBe('first');
    const refused = guard.consume(from('a3', 'address:192.0.2.1'));
    await expect(refused).rejects.toBeInstanceOf(ReplayGuardError);
    await expect(refused).rejects.toMatchObject({
      problem: 'full',
      message: expect.stringContaining('(memoryReplayGuard maxEntriesPerClient)'),
    });
    expect(await guard.consume(from('a1', 'address:192.0.2.1'))).toBe('replayed');
    expect(await guard.consume(from('b1', 'address:192.0.2.2'))).toBe('first');
    expect(await guard.consume(from('b2', 'address:192.0.2.2'))).toBe('first');
    // Resumes whose client is not known count against maxEntries only.
    for (const id of ['u1', 'u2', 'u3']) expect(await guard.consume(from(id))).toBe('first');
    now += 1_001;
    expect(await guard.consume(from('a3', 'address:192.0.2.1'))).toBe('first');
    expect(guard.size).toBe(1);
  });

  test('by default a client may hold a tenth of the guard', () => {
    expect(new MemoryReplayGuard().maxEntriesPerClient).toBe(10_000);
    expect(new MemoryReplayGuard(50).maxEntriesPerClient).toBe(5);
    expect(new MemoryReplayGuard(5).maxEntriesPerClient).toBe(1);
    expect(() => memoryReplayGuard({ maxEntriesPerClient: 0 })).toThrow('maxEntriesPerClient must be a whole number of at least 1, not 0');
    expect(memoryReplayGuard({ maxEntries: 10, maxEntriesPerClient: 2 })).not.toBe(memoryReplayGuard({ maxEntries: 10 }));
  });

  test('one store per process: every call gives the same guard, as a factory writing it inline per request needs', async () => {
    const first = memoryReplayGuard();
    const second = memoryReplayGuard();
    expect(second).toBe(first);
    const id = `inline-${Math.random()}`;
    expect(await first.consume(round(id))).toBe('first');
    expect(await memoryReplayGuard({}).consume(round(id))).toBe('replayed');
    expect(memoryReplayGuard({ maxEntries: 10 })).toBe(memoryReplayGuard({ maxEntries: 10 }));
    expect(memoryReplayGuard({ maxEntries: 10 })).not.toBe(first);
  });

  test('a malformed round or option is a programmer error that says what was expected', async () => {
    const guard = new MemoryReplayGuard();
    await expect(guard.consume(round(''))).rejects.toThrow('runId must be a non-empty string');
    await expect(guard.consume(round('r', -1))).rejects.toThrow('round must be a whole number, not -1');
    await expect(guard.consume(round('r', 1, Number.NaN))).rejects.toThrow('ttlMs must be a number of milliseconds, not NaN');
    expect(() => memoryReplayGuard({ maxEntries: 0 })).toThrow('maxEntries must be a whole number of at least 1, not 0');
  });
});

describe('ExpiryQueue', () => {
  test('takes exactly the keys expired by a time, earliest first, whatever the order they came in', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000 }), { maxLength: 200 }),
        fc.array(fc.integer({ min: 0, max: 1_000 })),
        (times, cuts) => {
          const queue = new ExpiryQueue();
          times.forEach((time, index) => queue.add(`k${index}`, time));
          let left = times.map((time, index) => ({ time, key: `k${index}` }));
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            const taken = [...queue.takeExpired(cut)];
            expect(taken.map((key) => times[Number(key.slice(1))])).toEqual(
              left
                .filter((entry) => entry.time < cut)
                .map((entry) => entry.time)
                .sort((a, b) => a - b),
            );
            expect(new Set(taken)).toEqual(new Set(left.filter((entry) => entry.time < cut).map((entry) => entry.key)));
            left = left.filter((entry) => entry.time >= cut);
          }
          expect([...queue.takeExpired(Infinity)].sort()).toEqual(left.map((entry) => entry.key).sort());
        },
      ),
    );
  });
});
