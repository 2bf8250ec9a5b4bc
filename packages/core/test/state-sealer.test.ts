import crypto from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { SealedStateError, StateSealer, type StateBinding } from '../src/engine/sealing';

const { randomBytes } = crypto;

const KEY = 'k'.repeat(32);
const OLD_KEY = randomBytes(32);
const binding: StateBinding = { prompt: 'add_project_task', arguments: { project: 'Roadmap', title: 'Ship it' } };

function problemOf(open: () => unknown): string {
  try {
    open();
  } catch (error) {
    expect(error).toBeInstanceOf(SealedStateError);
    return (error as SealedStateError).problem;
  }
  throw new Error('the state opened');
}

function sealed(sealer: StateSealer, payload: unknown, to: StateBinding = binding): string {
  const result = sealer.seal(payload, to);
  if (!result.ok) throw new Error(`state too large: ${result.size}`);
  return result.state;
}

describe('StateSealer', () => {
  test('opens what it sealed, for the same prompt and arguments in any key order', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    const payload = { position: 2, bindings: { pages: [{ id: 'p1', name: 'Roadmap' }] }, unicode: 'é ✓ 𝄞' };
    const state = sealed(sealer, payload);
    expect(sealer.open(state, binding)).toEqual(payload);
    expect(sealer.open(state, { prompt: binding.prompt, arguments: { title: 'Ship it', project: 'Roadmap' } })).toEqual(payload);
  });

  test('seals each state with a fresh IV: the same payload never gives the same string', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    expect(sealed(sealer, { a: 1 })).not.toBe(sealed(sealer, { a: 1 }));
  });

  test('the first key seals and every key opens, so keys rotate without breaking paused runs', () => {
    const before = new StateSealer({ keys: [OLD_KEY] });
    const during = new StateSealer({ keys: [KEY, OLD_KEY] });
    const after = new StateSealer({ keys: [KEY] });
    const old = sealed(before, { round: 1 });
    expect(during.open(old, binding)).toEqual({ round: 1 });
    const fresh = sealed(during, { round: 2 });
    expect(after.open(fresh, binding)).toEqual({ round: 2 });
    expect(problemOf(() => before.open(fresh, binding))).toBe('not-authentic');
    expect(problemOf(() => after.open(old, binding))).toBe('not-authentic');
  });

  test('a state for another prompt or other arguments does not open', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    const state = sealed(sealer, { position: 1 });
    expect(problemOf(() => sealer.open(state, { ...binding, prompt: 'delete_project' }))).toBe('not-authentic');
    expect(problemOf(() => sealer.open(state, { ...binding, arguments: { ...binding.arguments, title: 'Ship it!' } }))).toBe(
      'not-authentic',
    );
    expect(problemOf(() => sealer.open(state, { ...binding, arguments: { project: 'Roadmap' } }))).toBe('not-authentic');
    expect(problemOf(() => sealer.open(state, { ...binding, arguments: { ...binding.arguments, extra: 'x' } }))).toBe('not-authentic');
  });

  test('any altered byte is detected: version, IV, ciphertext (expiry included) and tag', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    const bytes = Buffer.from(sealed(sealer, { position: 1, text: 'hello' }), 'base64url');
    for (let index = 0; index < bytes.length; index += 1) {
      const altered = Buffer.from(bytes);
      altered[index] ^= 0x01;
      expect(['malformed', 'not-authentic']).toContain(problemOf(() => sealer.open(altered.toString('base64url'), binding)));
    }
    expect(problemOf(() => sealer.open(bytes.subarray(0, bytes.length - 1).toString('base64url'), binding))).toBe('not-authentic');
    expect(problemOf(() => sealer.open(Buffer.concat([bytes, Buffer.of(0)]).toString('base64url'), binding))).toBe('not-authentic');
  });

  test('forged and malformed states are refused with a reason, never with their contents', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    expect(problemOf(() => sealer.open(42, binding))).toBe('malformed');
    expect(problemOf(() => sealer.open('not base64url!', binding))).toBe('malformed');
    expect(problemOf(() => sealer.open('', binding))).toBe('malformed');
    const version = Buffer.from(sealed(sealer, {}), 'base64url').subarray(0, 1);
    // Random bytes whose first byte is not the seal's version (a random first byte equal to it is a forgery, below).
    const garbage = randomBytes(64);
    garbage[0] = version[0]! ^ 0xff;
    expect(problemOf(() => sealer.open(garbage.toString('base64url'), binding))).toBe('malformed');
    const forged = Buffer.concat([version, randomBytes(60)]).toString('base64url');
    expect(problemOf(() => sealer.open(forged, binding))).toBe('not-authentic');
    expect(() => sealer.open(forged, binding)).toThrow(
      /altered, forged, sealed for another prompt or other arguments.*without requestState/,
    );
  });

  test('a state expires after ttlSeconds', () => {
    let now = 1_700_000_000_000;
    const sealer = new StateSealer({ keys: [KEY], ttlSeconds: 60 }, () => now);
    const state = sealed(sealer, { position: 1 });
    now += 60_000;
    expect(sealer.open(state, binding)).toEqual({ position: 1 });
    now += 1;
    expect(problemOf(() => sealer.open(state, binding))).toBe('expired');
    expect(() => sealer.open(state, binding)).toThrow('it expired (states live 60 s)');
  });

  test('the expiry is not readable without the key, in any encoding (L7)', () => {
    const now = 1_700_000_000_000;
    const sealer = new StateSealer({ keys: [KEY], ttlSeconds: 600 }, () => now);
    const expiry = now + 600_000;
    const bytes = Buffer.from(sealed(sealer, { position: 1 }), 'base64url');
    const forms = [6, 8].flatMap((width) => {
      const big = Buffer.alloc(width);
      const little = Buffer.alloc(width);
      big.writeUIntBE(expiry, 0, 6);
      little.writeUIntLE(expiry, 0, 6);
      return [big.subarray(width - 6), big, little];
    });
    for (const form of forms) expect(bytes.includes(form)).toBe(false);
    for (const text of [String(expiry), String(expiry / 1000), new Date(expiry).toISOString()]) expect(bytes.includes(text)).toBe(false);
  });

  test('a state names no key: states sealed with different keys differ only in what is random or encrypted', () => {
    const payload = { position: 1 };
    const [one, other] = [KEY, OLD_KEY].map((key) => Buffer.from(sealed(new StateSealer({ keys: [key] }), payload), 'base64url'));
    expect(one.length).toBe(other.length);
    // In clear: the format version, then a random IV; nothing derived from the key.
    expect(one[0]).toBe(other[0]);
    expect(one.length - 1 - 12 - 16).toBe(6 + JSON.stringify(payload).length);
  });

  test('does not compress: the size bound is the one the opener enforces, checked before anything is encrypted', () => {
    const sealer = new StateSealer({ keys: [KEY], maxBytes: 4096 });
    const repetitive = { rows: Array.from({ length: 2000 }, (_, index) => ({ id: index % 10, status: 'open' })) };
    expect(sealer.seal(repetitive, binding)).toMatchObject({
      ok: false,
      problem: 'too-large',
      limit: 4096,
      reason: expect.stringMatching(/^its state would be \d+ characters sealed, over this server's limit of 4096 \(pause\.maxBytes\)$/),
    });
    // Every payload that seals opens again, and every one that would not open is refused before sealing.
    fc.assert(
      fc.property(fc.integer({ min: 2900, max: 3100 }), (length) => {
        const payload = { text: 'x'.repeat(length) };
        const result = sealer.seal(payload, binding);
        if (result.ok) {
          expect(result.state.length).toBeLessThanOrEqual(4096);
          expect(sealer.open(result.state, binding)).toEqual(payload);
        } else {
          expect(result).toMatchObject({ problem: 'too-large', size: expect.any(Number), limit: 4096 });
          expect(result.size).toBeGreaterThan(4096);
        }
      }),
    );
    expect(problemOf(() => sealer.open('A'.repeat(4097), binding))).toBe('too-large');
  });

  test('a 20 MB output, in a binding and in the trace, is refused before sealing rather than sealed into a state nothing opens (L1)', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    const output = 'row,'.repeat(5 * 1024 * 1024);
    const result = sealer.seal({ bindings: { rows: output }, messages: [`Result of export:\n${output}`] }, binding);
    if (result.ok) expect(sealer.open(result.state, binding)).toBeDefined();
    expect(result).toMatchObject({ ok: false, problem: 'too-large', limit: 512 * 1024 });
  });

  test('a payload JSON cannot hold (nested thousands of levels deep) is refused with a reason, not thrown (L1)', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    let deep: unknown = 'leaf';
    for (let level = 0; level < 20_000; level += 1) deep = { next: deep };
    expect(sealer.seal({ bindings: { deep } }, binding)).toEqual({
      ok: false,
      problem: 'unrepresentable',
      reason: 'its state cannot be stored: a value in it is nested too deeply or too large',
    });
  });

  test('nothing of the payload is readable in the state, in any encoding', () => {
    const secret = 'sk_live_51HxQ2cEXAMPLEsecretVALUE';
    const sealer = new StateSealer({ keys: [KEY] });
    const state = sealed(sealer, { bindings: { login: { token: secret } }, trace: [`token ${secret}`] });
    const bytes = Buffer.from(state, 'base64url');
    const views = [state, bytes.toString('latin1'), bytes.toString('hex'), bytes.toString('base64'), bytes.toString('utf8')];
    const forms = [
      secret,
      Buffer.from(secret).toString('base64'),
      Buffer.from(secret).toString('base64url'),
      Buffer.from(secret).toString('hex'),
      encodeURIComponent(secret),
    ];
    for (const view of views) for (const form of forms) expect(view).not.toContain(form);
    // Not merely compressed: inflating the bytes after the version and IV gives nothing readable either.
    let inflated = '';
    try {
      inflated = inflateRawSync(bytes.subarray(13, bytes.length - 16)).toString('latin1');
    } catch {
      // Not deflate data at all: it is ciphertext.
    }
    expect(inflated).not.toContain(secret);
  });

  test('keys must be at least 32 bytes, and there must be one', () => {
    expect(() => new StateSealer({ keys: [] })).toThrow('give at least one key');
    expect(() => new StateSealer({ keys: [KEY, 'short'] })).toThrow(/key 2 of 2 is 5 bytes; each key needs at least 32/);
    expect(() => new StateSealer({ keys: [KEY, new Uint8Array(31)] })).toThrow(/key 2 of 2 is 31 bytes/);
    expect(() => new StateSealer({ keys: [KEY], ttlSeconds: 0 })).toThrow('ttlSeconds must be a positive number');
  });
});

describe('no compression oracle (DESIGN §2.8, H1)', () => {
  const alphabet = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'.split(''));
  /** A secret, and three guesses of its length: the secret itself, one sharing a prefix of it, and an unrelated one. */
  const guesses = fc.string({ unit: alphabet, minLength: 6, maxLength: 48 }).chain((secret) =>
    fc.record({
      secret: fc.constant(secret),
      unrelated: fc.string({ unit: alphabet, minLength: secret.length, maxLength: secret.length }),
      shared: fc.integer({ min: 1, max: secret.length - 1 }),
    }),
  );

  test('the sealed length does not depend on whether text the client chose, sealed next to a secret, matches it', () => {
    const sealer = new StateSealer({ keys: [KEY] });
    // As a paused run holds them: a token a tool returned in a binding and in the trace, the client's argument in the trace.
    const lengthWith = (secret: string, guess: string) =>
      sealed(sealer, {
        bindings: { login: { token: secret } },
        messages: [`Arguments:\n- note: ${guess}`, `Result of login:\n{"token":"${secret}"}`],
      }).length;
    fc.assert(
      fc.property(guesses, ({ secret, unrelated, shared }) => {
        const prefixed = secret.slice(0, shared) + unrelated.slice(shared);
        const lengths = [secret, prefixed, unrelated].map((guess) => lengthWith(secret, guess));
        expect(new Set(lengths).size).toBe(1);
      }),
      { numRuns: 200 },
    );
  });
});

describe('string keys go through scrypt, once per key value (M4)', () => {
  test('a base64url string of 32 random bytes is a key, and any sealer given it opens what another sealed', () => {
    const generated = randomBytes(32).toString('base64url');
    const state = sealed(new StateSealer({ keys: [generated] }), { round: 1 });
    expect(new StateSealer({ keys: [generated] }).open(state, binding)).toEqual({ round: 1 });
  });

  test('bytes keys of 32 bytes or more work, as a Buffer or a Uint8Array of the same bytes', () => {
    const bytes = randomBytes(48);
    const state = sealed(new StateSealer({ keys: [bytes] }), { round: 1 });
    expect(new StateSealer({ keys: [new Uint8Array(bytes)] }).open(state, binding)).toEqual({ round: 1 });
  });

  test('the AES key of a string is scrypt(N 2^15, r 8, p 1) of it, not a fast hash an offline guesser could try quickly', () => {
    const passphrase = 'correct horse battery staple, and then some more words';
    const bytes = Buffer.from(sealed(new StateSealer({ keys: [passphrase] }), { round: 1 }), 'base64url');
    const decrypt = (key: Buffer) => {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 13));
      decipher.setAAD(
        Buffer.concat([
          bytes.subarray(0, 1),
          Buffer.from(
            JSON.stringify([
              binding.prompt,
              [
                ['project', 'Roadmap'],
                ['title', 'Ship it'],
              ],
            ]),
          ),
        ]),
      );
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(13, bytes.length - 16)), decipher.final()]).toString('utf8', 6);
    };
    const stretched = crypto.scryptSync(passphrase, 'mcpflow requestState AES-256-GCM v2', 32, {
      N: 2 ** 15,
      r: 8,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    });
    expect(decrypt(stretched)).toBe('{"round":1}');
    const fast = Buffer.from(crypto.hkdfSync('sha256', passphrase, 'mcpflow', 'mcpflow requestState AES-256-GCM v2', 32));
    expect(() => decrypt(fast)).toThrow();
  });

  test('a factory that writes its options inline, per request, pays scrypt once per key value', () => {
    const scrypt = jest.spyOn(crypto, 'scryptSync');
    try {
      const key = `a passphrase used by this test only: ${randomBytes(8).toString('hex')}`;
      const rotated = `the key rotated in after it, also 32+ bytes: ${randomBytes(8).toString('hex')}`;
      const states = Array.from({ length: 20 }, (_, request) =>
        sealed(new StateSealer({ keys: [rotated, key], ttlSeconds: 600 }), { request }),
      );
      expect(scrypt).toHaveBeenCalledTimes(2);
      expect(new StateSealer({ keys: [rotated] }).open(states[19], binding)).toEqual({ request: 19 });
      expect(scrypt).toHaveBeenCalledTimes(2);
    } finally {
      scrypt.mockRestore();
    }
  });
});
