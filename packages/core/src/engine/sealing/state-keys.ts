import { createHash, hkdfSync } from 'node:crypto';

/** Key material for sealing paused runs: a string (UTF-8) or bytes, at least 32 bytes either way. */
export type StateKeyMaterial = string | Uint8Array;

/** An AES-256 key derived from one configured key, with the short id that names it in a sealed state. */
export interface DerivedStateKey {
  readonly id: Buffer;
  readonly key: Buffer;
}

/** Bytes of the key id written into each sealed state: enough to pick the key, nothing about it. */
export const KEY_ID_BYTES = 4;

const MINIMUM_KEY_BYTES = 32;

/**
 * Derives the AES-256-GCM keys from the configured key list (HKDF-SHA256, so a long passphrase is
 * as good as raw bytes). The first key seals; every key opens, which is how keys rotate: put the new
 * key first, keep the old one until the longest-lived state sealed with it has expired.
 *
 * @example
 * ```ts
 * const keys = deriveStateKeys([process.env.MCPFLOW_STATE_KEY!, process.env.MCPFLOW_OLD_STATE_KEY!]);
 * ```
 */
export function deriveStateKeys(material: readonly StateKeyMaterial[]): DerivedStateKey[] {
  if (material.length === 0)
    throw new RangeError('mcpflow state keys: give at least one key (32 bytes or more); the first one seals, all of them open.');
  return material.map((entry, index) => {
    const bytes = typeof entry === 'string' ? Buffer.from(entry, 'utf8') : Buffer.from(entry);
    if (bytes.length < MINIMUM_KEY_BYTES) {
      throw new RangeError(
        `mcpflow state keys: key ${index + 1} of ${material.length} is ${bytes.length} bytes; each key needs at least ${MINIMUM_KEY_BYTES}. ` +
          `Generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64url'))"`,
      );
    }
    const key = Buffer.from(hkdfSync('sha256', bytes, 'mcpflow', 'mcpflow requestState AES-256-GCM v1', 32));
    const id = createHash('sha256').update('mcpflow requestState key id v1').update(key).digest().subarray(0, KEY_ID_BYTES);
    return { id, key };
  });
}
