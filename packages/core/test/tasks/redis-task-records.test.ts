import { storedValue, textOfHash } from '../../src/adapter-kit/tasks/redis-task-records';

/**
 * How bullmqTasks keeps a sealed value in a Redis hash (issue 38: bytes, a quarter smaller than the
 * base64url text) and reads it back — also as the previous release stored it (that text), so a task
 * in flight across an upgrade of mcpflow (issue 41: "a state sealed by the previous release opens in
 * the next") is read as it was written.
 */
const sealed = Buffer.from('a sealed value: nonce, ciphertext and tag, any bytes \u0000\u00ff').toString('base64url');

test('a sealed field is stored as bytes, fewer than its text, and read back as the same text', () => {
  const stored = storedValue('call', sealed) as Buffer;
  expect(Buffer.isBuffer(stored)).toBe(true);
  expect(stored.length).toBeLessThan(sealed.length);
  expect(textOfHash({ call: stored, status: Buffer.from('working') })).toEqual({ call: sealed, status: 'working' });
  expect(textOfHash([stored, null], ['checkpoint:1', 'result'])).toEqual({ 'checkpoint:1': sealed });
});

test('a sealed field the previous release stored as base64url text is read as that text', () => {
  const legacy = { call: Buffer.from(sealed), 'checkpoint:2': Buffer.from(sealed), result: Buffer.from(sealed) };
  expect(textOfHash(legacy)).toEqual({ call: sealed, 'checkpoint:2': sealed, result: sealed });
  // As HGETALL's flat reply of pairs, too.
  expect(textOfHash([Buffer.from('state'), Buffer.from(sealed)] as never)).toEqual({ state: sealed });
});

test('a field that is not sealed is stored and read as text', () => {
  expect(storedValue('statusMessage', 'step 2 of 4: build')).toBe('step 2 of 4: build');
  expect(textOfHash({ statusMessage: Buffer.from('step 2 of 4: build') })).toEqual({ statusMessage: 'step 2 of 4: build' });
});
