import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SealedStateError } from './sealed-state-error';
import { KEY_ID_BYTES, deriveStateKeys, type DerivedStateKey, type StateKeyMaterial } from './state-keys';

/** How paused runs are sealed into `requestState`: the keys, how long a state lives, how large it may be. */
export interface StateSealingOptions {
  /** At least one key of 32 bytes or more. The first seals; all open (rotation). Share them across instances. */
  readonly keys: readonly StateKeyMaterial[];
  /** How long a sealed state can be resumed from, in seconds. Default 600. */
  readonly ttlSeconds?: number;
  /** The largest sealed state, in characters of the `requestState` string. Default 512 KiB. */
  readonly maxBytes?: number;
}

/** What a sealed state is bound to: it opens only for the same prompt with the same arguments. */
export interface StateBinding {
  readonly prompt: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A sealed state, or how far over the size limit it would have been. */
export type SealResult =
  { readonly ok: true; readonly state: string } | { readonly ok: false; readonly size: number; readonly limit: number };

export const DEFAULT_STATE_TTL_SECONDS = 600;
export const DEFAULT_MAX_STATE_BYTES = 512 * 1024;

const FORMAT_VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const EXPIRY_BYTES = 6;
const HEADER_BYTES = 1 + KEY_ID_BYTES + EXPIRY_BYTES;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** Bound on what one state may inflate to, as a multiple of the sealed size: refuses a zip bomb even under a leaked key. */
const MAX_INFLATION = 64;

/**
 * Seals a paused run's state into the opaque `requestState` string of protocol 2026-07-28, and
 * opens it again on any instance holding one of the keys.
 *
 * The state is JSON, compressed (raw deflate), then encrypted and authenticated with AES-256-GCM:
 * nothing in it is readable by the client, and any change is detected. The header (format version,
 * key id, expiry) and the prompt name and arguments are the authenticated additional data, so a
 * state opens only for the same prompt and arguments, before its expiry. The arguments themselves
 * are not in the state: the client sends them again with the retry.
 *
 * Layout, base64url: `version (1) · key id (4) · expires at, ms (6) · IV (12) · ciphertext · tag (16)`.
 *
 * @example
 * ```ts
 * const sealer = new StateSealer({ keys: [process.env.MCPFLOW_STATE_KEY!] });
 * const sealed = sealer.seal({ position: 2 }, { prompt: 'add_task', arguments: { name: 'Roadmap' } });
 * if (sealed.ok) sealer.open(sealed.state, { prompt: 'add_task', arguments: { name: 'Roadmap' } }); // { position: 2 }
 * ```
 */
export class StateSealer {
  private readonly keys: readonly DerivedStateKey[];
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

  /** Seals `payload` (JSON) for this prompt and these arguments, with the first key. */
  seal(payload: unknown, binding: StateBinding): SealResult {
    const { id, key } = this.keys[0];
    const header = Buffer.alloc(HEADER_BYTES);
    header.writeUInt8(FORMAT_VERSION, 0);
    id.copy(header, 1);
    header.writeUIntBE(this.now() + this.ttlMs, 1 + KEY_ID_BYTES, EXPIRY_BYTES);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(additionalData(header, binding));
    const compressed = deflateRawSync(Buffer.from(JSON.stringify(payload), 'utf8'));
    const sealed = Buffer.concat([header, iv, cipher.update(compressed), cipher.final(), cipher.getAuthTag()]).toString('base64url');
    return sealed.length > this.maxBytes ? { ok: false, size: sealed.length, limit: this.maxBytes } : { ok: true, state: sealed };
  }

  /**
   * Opens a state sealed by `seal` with any of the keys, for the same prompt and arguments.
   * Throws `SealedStateError` for anything else; nothing of the state is used before it is authenticated.
   */
  open(state: unknown, binding: StateBinding): unknown {
    if (typeof state !== 'string') throw new SealedStateError('malformed', 'it must be the string the server returned.');
    if (state.length > this.maxBytes)
      throw new SealedStateError('too-large', `it is ${state.length} characters; this server accepts at most ${this.maxBytes}.`);
    if (!BASE64URL.test(state)) throw new SealedStateError('malformed', 'it is not base64url text.');
    const bytes = Buffer.from(state, 'base64url');
    if (bytes.length < HEADER_BYTES + IV_BYTES + TAG_BYTES || bytes.readUInt8(0) !== FORMAT_VERSION) {
      throw new SealedStateError('malformed', 'it is not a state this server seals.');
    }
    const header = bytes.subarray(0, HEADER_BYTES);
    const keyId = header.subarray(1, 1 + KEY_ID_BYTES);
    const key = this.keys.find((candidate) => candidate.id.equals(keyId));
    const notAuthentic = new SealedStateError(
      'not-authentic',
      `it was altered, forged, sealed for another prompt or other arguments, or sealed with a key this server does not hold. Retry prompts/get '${binding.prompt}' without requestState to start over.`,
    );
    if (!key) throw notAuthentic;
    const iv = bytes.subarray(HEADER_BYTES, HEADER_BYTES + IV_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', key.key, iv);
    decipher.setAAD(additionalData(header, binding));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    let compressed: Buffer;
    try {
      compressed = Buffer.concat([decipher.update(bytes.subarray(HEADER_BYTES + IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw notAuthentic;
    }
    if (this.now() > header.readUIntBE(1 + KEY_ID_BYTES, EXPIRY_BYTES)) {
      throw new SealedStateError(
        'expired',
        `it expired (states live ${this.ttlMs / 1000} s). Retry prompts/get '${binding.prompt}' without requestState to start over.`,
      );
    }
    try {
      return JSON.parse(inflateRawSync(compressed, { maxOutputLength: this.maxBytes * MAX_INFLATION }).toString('utf8')) as unknown;
    } catch {
      throw new SealedStateError('malformed', 'its contents could not be read.');
    }
  }
}

/** The header and the binding, authenticated but not sent: arguments are compared by value, keys in any order. */
function additionalData(header: Buffer, binding: StateBinding): Buffer {
  const args = Object.keys(binding.arguments)
    .filter((name) => binding.arguments[name] !== undefined)
    .sort()
    .map((name) => [name, binding.arguments[name]]);
  return Buffer.concat([header, Buffer.from(JSON.stringify([binding.prompt, args]), 'utf8')]);
}
