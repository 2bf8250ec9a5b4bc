import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { SealedStateError } from './sealed-state-error';
import { deriveStateKeys, type StateKeyMaterial } from './state-keys';

/** How paused runs are sealed into `requestState`: the keys, how long a state lives, how large it may be. */
export interface StateSealingOptions {
  /**
   * At least one key of 32 bytes or more. The first seals; all open (rotation: put the new key
   * first, drop the old one once the states it sealed have expired). Give every instance the same
   * keys. A string key goes through scrypt (once per process and key), so a long passphrase holds
   * up against offline guessing, but a generated key is best — this prints one:
   *
   * ```sh
   * node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"
   * ```
   *
   * Bytes (`Buffer`, `Uint8Array`) are taken as random key material and are not stretched.
   */
  readonly keys: readonly StateKeyMaterial[];
  /** How long a sealed state can be resumed from, in seconds. Default 600. */
  readonly ttlSeconds?: number;
  /** The largest sealed state, in characters of the `requestState` string. Default 512 KiB. */
  readonly maxBytes?: number;
}

/**
 * What a sealed state is bound to: it opens only for the same request — the same prompt, or the
 * same tool (`face: 'tool'`), with the same arguments. A state from a prompt run never resumes a
 * tool call of the same workflow, nor the reverse.
 */
export interface StateBinding {
  /** The name the client called: the prompt's, or with `face: 'tool'` the tool's. */
  readonly prompt: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** How the client called the workflow: `prompts/get` (the default) or `tools/call`. */
  readonly face?: 'prompt' | 'tool';
}

/**
 * Why a payload was not sealed — known before anything is sent, so the run can hand off instead
 * of returning a state no resume could open. `reason` completes "the server cannot pause: …".
 */
export type SealRefusal =
  | { readonly ok: false; readonly problem: 'too-large'; readonly size: number; readonly limit: number; readonly reason: string }
  | {
      readonly ok: false;
      readonly problem: 'unrepresentable';
      readonly size?: undefined;
      readonly limit?: undefined;
      readonly reason: string;
    };

/** A sealed state, or why there is none. */
export type SealResult = { readonly ok: true; readonly state: string } | SealRefusal;

/** What an authentic, unexpired state holds, and how long it stays valid (what a replay guard must remember it for). */
export interface OpenedState {
  readonly payload: unknown;
  /** Milliseconds until the state expires, by this sealer's clock (0 in its last millisecond). */
  readonly remainingMs: number;
}

export const DEFAULT_STATE_TTL_SECONDS = 600;
export const DEFAULT_MAX_STATE_BYTES = 512 * 1024;

const FORMAT_VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const EXPIRY_BYTES = 6;
const CLEAR_BYTES = 1 + IV_BYTES;
const OVERHEAD_BYTES = CLEAR_BYTES + EXPIRY_BYTES + TAG_BYTES;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Seals a paused run's state into the opaque `requestState` string of protocol 2026-07-28, and
 * opens it again on any instance holding one of the keys.
 *
 * Exported from `@mcpflow/core` for mcpflow's own benchmark, not for servers: a server seals and
 * opens states itself (its `pause` option configures this sealer).
 *
 * @internal
 *
 * The state is JSON, encrypted and authenticated with AES-256-GCM. Only the format version and the
 * IV are in clear; the expiry travels inside the ciphertext, and the prompt name and arguments are
 * authenticated additional data, so a state opens only for the same prompt and arguments, before
 * its expiry. The arguments themselves are not in the state: the client sends them again.
 *
 * Two things a client must not learn from a state, and how they are kept from it:
 * - what its contents are made of: the JSON is **not compressed**. Compressing secret-bearing data
 *   next to text the client chose makes the length an oracle (a guess equal to the secret
 *   compresses better). The length shows how long the payload is, nothing more.
 * - which key sealed it: a state names **no key**. The opener tries each configured key (a rotation
 *   list is short, and a wrong key fails on the tag), so nothing in clear can be checked against a
 *   guessed passphrase without decrypting, which costs a guess the full scrypt.
 *
 * Layout, base64url: `version (1) · IV (12) · ciphertext of [expires at, ms (6) · JSON] · tag (16)`.
 *
 * @example
 * ```ts
 * const sealer = new StateSealer({ keys: [process.env.MCPFLOW_STATE_KEY!] });
 * const sealed = sealer.seal({ position: 2 }, { prompt: 'add_task', arguments: { name: 'Roadmap' } });
 * if (sealed.ok) sealer.open(sealed.state, { prompt: 'add_task', arguments: { name: 'Roadmap' } }); // { position: 2 }
 * ```
 */
export class StateSealer {
  private readonly keys: readonly Buffer[];
  private readonly ttlMs: number;
  readonly maxBytes: number;

  constructor(
    options: StateSealingOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.keys = deriveStateKeys(options.keys);
    const ttlSeconds = options.ttlSeconds ?? DEFAULT_STATE_TTL_SECONDS;
    if (!(ttlSeconds > 0) || !Number.isFinite(ttlSeconds))
      throw new RangeError(`mcpflow state sealing: ttlSeconds must be a positive number of seconds, not ${ttlSeconds}.`);
    this.ttlMs = Math.round(ttlSeconds * 1000);
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_STATE_BYTES;
    if (!Number.isInteger(this.maxBytes) || this.maxBytes < 64)
      throw new RangeError(`mcpflow state sealing: maxBytes must be an integer of at least 64, not ${options.maxBytes}.`);
  }

  /**
   * Seals `payload` (JSON) for this prompt and these arguments, with the first key — or says why
   * not, never throwing for the payload: a state `open` would refuse (over `maxBytes`) is not sealed.
   */
  seal(payload: unknown, binding: StateBinding): SealResult {
    let json: Buffer;
    try {
      json = Buffer.from(JSON.stringify(payload), 'utf8');
    } catch (error) {
      const why = error instanceof RangeError ? 'nested too deeply or too large' : 'not plain JSON';
      return { ok: false, problem: 'unrepresentable', reason: `its state cannot be stored: a value in it is ${why}` };
    }
    const size = Math.ceil(((OVERHEAD_BYTES + json.length) * 4) / 3);
    if (size > this.maxBytes) {
      return {
        ok: false,
        problem: 'too-large',
        size,
        limit: this.maxBytes,
        reason: `its state would be ${size} characters sealed, over this server's limit of ${this.maxBytes} (pause.maxBytes)`,
      };
    }
    const expiry = Buffer.alloc(EXPIRY_BYTES);
    expiry.writeUIntBE(this.now() + this.ttlMs, 0, EXPIRY_BYTES);
    const version = Buffer.of(FORMAT_VERSION);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys[0], iv);
    cipher.setAAD(additionalData(binding));
    const sealed = Buffer.concat([version, iv, cipher.update(expiry), cipher.update(json), cipher.final(), cipher.getAuthTag()]);
    return { ok: true, state: sealed.toString('base64url') };
  }

  /**
   * Opens a state sealed by `seal` with any of the keys, for the same prompt and arguments: its
   * payload. Throws `SealedStateError` for anything else; nothing of the state is used before it is
   * authenticated.
   */
  open(state: unknown, binding: StateBinding): unknown {
    return this.openState(state, binding).payload;
  }

  /** As `open`, also telling how long the state has left to live. */
  openState(state: unknown, binding: StateBinding): OpenedState {
    if (typeof state !== 'string') throw new SealedStateError('malformed', 'it must be the string the server returned.');
    if (state.length > this.maxBytes)
      throw new SealedStateError('too-large', `it is ${state.length} characters; this server accepts at most ${this.maxBytes}.`);
    if (!BASE64URL.test(state)) throw new SealedStateError('malformed', 'it is not base64url text.');
    const bytes = Buffer.from(state, 'base64url');
    if (bytes.length < OVERHEAD_BYTES || bytes.readUInt8(0) !== FORMAT_VERSION)
      throw new SealedStateError('malformed', 'it is not a state this server seals.');
    const plain = this.decrypt(bytes, additionalData(binding));
    if (!plain) {
      throw new SealedStateError(
        'not-authentic',
        `it was altered, forged, sealed for another prompt or other arguments, or sealed with a key this server does not hold. Retry ${retried(binding)} without requestState to start over.`,
      );
    }
    const remainingMs = plain.readUIntBE(0, EXPIRY_BYTES) - this.now();
    if (remainingMs < 0) {
      throw new SealedStateError(
        'expired',
        `it expired (states live ${this.ttlMs / 1000} s). Retry ${retried(binding)} without requestState to start over.`,
      );
    }
    try {
      return { payload: JSON.parse(plain.toString('utf8', EXPIRY_BYTES)) as unknown, remainingMs };
    } catch {
      throw new SealedStateError('malformed', 'its contents could not be read.');
    }
  }

  /** The plaintext under the first key whose tag verifies, or nothing. */
  private decrypt(bytes: Buffer, aad: Buffer): Buffer | undefined {
    const iv = bytes.subarray(1, CLEAR_BYTES);
    const ciphertext = bytes.subarray(CLEAR_BYTES, bytes.length - TAG_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    for (const key of this.keys) {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(aad);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
      } catch {
        // Sealed with another key, or not authentic: try the next one.
      }
    }
    return undefined;
  }
}

/**
 * The format version and the binding, authenticated but not sent: arguments are compared by value,
 * keys in any order. A tool's binding has one more element, so it never equals a prompt's.
 */
function additionalData(binding: StateBinding): Buffer {
  const args = Object.keys(binding.arguments)
    .filter((name) => binding.arguments[name] !== undefined)
    .sort()
    .map((name) => [name, binding.arguments[name]]);
  const bound = binding.face === 'tool' ? ['tool', binding.prompt, args] : [binding.prompt, args];
  return Buffer.concat([Buffer.of(FORMAT_VERSION), Buffer.from(JSON.stringify(bound), 'utf8')]);
}

/** The request to retry afresh, as an error message names it: `prompts/get 'x'` or `tools/call 'x'`. */
export function retried(binding: Pick<StateBinding, 'prompt' | 'face'>): string {
  return `${binding.face === 'tool' ? 'tools/call' : 'prompts/get'} '${binding.prompt}'`;
}
