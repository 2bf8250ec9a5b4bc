import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SealedStateError, StateSealer, type StateBinding } from '../src/engine/sealing';

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

  test('any altered byte is detected: version, key id, expiry, IV, ciphertext and tag', () => {
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
    expect(problemOf(() => sealer.open(randomBytes(64).toString('base64url'), binding))).toBe('malformed');
    const forged = Buffer.concat([Buffer.of(1), randomBytes(60)]).toString('base64url');
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

  test('an expiry moved forward by the client is detected: the header is authenticated', () => {
    let now = 1_700_000_000_000;
    const sealer = new StateSealer({ keys: [KEY], ttlSeconds: 1 }, () => now);
    const bytes = Buffer.from(sealed(sealer, { position: 1 }), 'base64url');
    bytes.writeUIntBE(now + 3_600_000, 5, 6);
    now += 2_000;
    expect(problemOf(() => sealer.open(bytes.toString('base64url'), binding))).toBe('not-authentic');
  });

  test('compresses before encrypting, and bounds the size both ways', () => {
    const sealer = new StateSealer({ keys: [KEY], maxBytes: 4096 });
    const repetitive = { rows: Array.from({ length: 2000 }, (_, index) => ({ id: index % 10, status: 'open' })) };
    expect(JSON.stringify(repetitive).length).toBeGreaterThan(40_000);
    const state = sealed(sealer, repetitive);
    expect(state.length).toBeLessThan(4096);
    expect(sealer.open(state, binding)).toEqual(repetitive);

    const random = { blob: randomBytes(8192).toString('base64') };
    expect(sealer.seal(random, binding)).toEqual({ ok: false, size: expect.any(Number), limit: 4096 });
    expect(problemOf(() => sealer.open('A'.repeat(4097), binding))).toBe('too-large');
  });

  test('an authentic state that would inflate past the bound is refused', () => {
    const generous = new StateSealer({ keys: [KEY], maxBytes: 1024 * 1024 });
    const bomb = sealed(generous, { zeros: '0'.repeat(8 * 1024 * 1024) });
    const strict = new StateSealer({ keys: [KEY], maxBytes: bomb.length + 1 });
    expect(bomb.length * 64).toBeLessThan(8 * 1024 * 1024);
    expect(problemOf(() => strict.open(bomb, binding))).toBe('malformed');
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
    // Not merely compressed: inflating the bytes after the header gives nothing readable either.
    let inflated = '';
    try {
      inflated = inflateRawSync(bytes.subarray(23, bytes.length - 16)).toString('latin1');
    } catch {
      // Not deflate data at all: it is ciphertext.
    }
    expect(inflated).not.toContain(secret);
  });

  test('keys must be at least 32 bytes, and there must be one', () => {
    expect(() => new StateSealer({ keys: [] })).toThrow('give at least one key');
    expect(() => new StateSealer({ keys: [KEY, 'short'] })).toThrow(/key 2 of 2 is 5 bytes; each key needs at least 32/);
    expect(() => new StateSealer({ keys: [KEY], ttlSeconds: 0 })).toThrow('ttlSeconds must be a positive number');
  });
});
