import { hkdfSync, scryptSync } from 'node:crypto';

/**
 * Key material for sealing paused runs, at least 32 bytes either way: a string (a passphrase or a
 * generated key, stretched with scrypt), or random bytes (used through HKDF).
 */
export type StateKeyMaterial = string | Uint8Array;

const MINIMUM_KEY_BYTES = 32;
const AES_KEY_BYTES = 32;

/**
 * scrypt cost for string keys: N = 2^15, r = 8, p = 1 — 32 MiB of memory and tens of
 * milliseconds per derivation. A string key may be a passphrase someone typed, and a captured
 * `requestState` lets an attacker test guesses offline: each guess must cost that memory and time
 * (a fast KDF allowed tens of thousands of guesses a second on one core). The cost is paid once per
 * key value and process (see `stretchedKeys`), never per request.
 */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
/** Fixed, so every instance derives the same key from the same string; it separates this use from any other. */
const SCRYPT_SALT = 'mcpflow requestState AES-256-GCM v2';
const HKDF_INFO = 'mcpflow requestState AES-256-GCM v2';

/**
 * Keys already stretched, by key value, for the whole process: a server built per request (a
 * factory writing `{ pause: { keys: [...] } }` inline) finds its keys here instead of paying scrypt
 * again. Bounded, oldest first out, so a process cycling through keys cannot grow it without end.
 */
const stretchedKeys = new Map<string, Buffer>();
const MAX_STRETCHED_KEYS = 64;

/**
 * Derives the AES-256-GCM keys from the configured key list. The first key seals; every key opens,
 * which is how keys rotate: put the new key first, keep the old one until the longest-lived state
 * sealed with it has expired. No key id is derived: a state names no key (see `StateSealer`).
 *
 * @example
 * ```ts
 * const keys = deriveStateKeys([process.env.MCPFLOW_STATE_KEY!, process.env.MCPFLOW_OLD_STATE_KEY!]);
 * ```
 */
export function deriveStateKeys(material: readonly StateKeyMaterial[]): Buffer[] {
  if (material.length === 0)
    throw new RangeError('mcpflow state keys: give at least one key (32 bytes or more); the first one seals, all of them open.');
  return material.map((entry, index) => {
    const length = typeof entry === 'string' ? Buffer.byteLength(entry, 'utf8') : entry.byteLength;
    if (length < MINIMUM_KEY_BYTES) {
      throw new RangeError(
        `mcpflow state keys: key ${index + 1} of ${material.length} is ${length} bytes; each key needs at least ${MINIMUM_KEY_BYTES}. ` +
          `Generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`,
      );
    }
    return typeof entry === 'string' ? stretched(entry) : Buffer.from(hkdfSync('sha256', entry, 'mcpflow', HKDF_INFO, AES_KEY_BYTES));
  });
}

function stretched(passphrase: string): Buffer {
  let key = stretchedKeys.get(passphrase);
  if (key === undefined) {
    key = scryptSync(passphrase, SCRYPT_SALT, AES_KEY_BYTES, SCRYPT);
    if (stretchedKeys.size >= MAX_STRETCHED_KEYS) stretchedKeys.delete(stretchedKeys.keys().next().value!);
    stretchedKeys.set(passphrase, key);
  }
  return key;
}
