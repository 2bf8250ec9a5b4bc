import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { StateSealer, deriveStateKeys, type StateSealingOptions } from '../../engine';

const sealers = new WeakMap<StateSealingOptions, StateSealer>();
const taskSealers = new WeakMap<StateSealingOptions, Map<number, StateSealer>>();
let processKey: Buffer | undefined;
let processSealer: StateSealer | undefined;
const processTaskSealers = new Map<number, StateSealer>();
const digestKeys = new WeakMap<StateSealingOptions, readonly Buffer[]>();
let processDigestKeys: readonly Buffer[] | undefined;

/** The largest sealed value a task keeps (its state, questions, answers, result): results are held to `maxTraceBytes` before. */
const MAX_TASK_VALUE_CHARACTERS = 256 * 1024 * 1024;

/** One random key per process, for servers without `pause.keys`: enough for a single instance. */
function processKeys(): StateSealingOptions {
  processKey ??= randomBytes(32);
  return { keys: [processKey] };
}

/**
 * The sealer for a server's `pause` options, built once per options object: with a server per
 * request (`createMcpHandler`), keys are not derived again on every request. Without options, one
 * random key per process — enough for a single instance, not for several behind a load balancer.
 */
export function stateSealer(options: StateSealingOptions | undefined): StateSealer {
  if (!options) return (processSealer ??= new StateSealer(processKeys()));
  let sealer = sealers.get(options);
  if (!sealer) {
    sealer = new StateSealer(options);
    sealers.set(options, sealer);
  }
  return sealer;
}

/**
 * The sealer of what a task keeps (DESIGN §2.13): the same keys as `stateSealer` (so a task opens
 * the `requestState` of the round that preceded it), its values living as long as the task
 * (`ttlMs`, plus a minute) and as large as a result may be. One per options object and TTL.
 */
export function taskSealer(options: StateSealingOptions | undefined, ttlMs: number): StateSealer {
  let byTtl = options ? taskSealers.get(options) : processTaskSealers;
  if (!byTtl) {
    byTtl = new Map();
    taskSealers.set(options!, byTtl);
  }
  let sealer = byTtl.get(ttlMs);
  if (!sealer) {
    const keys = options?.keys ?? processKeys().keys;
    sealer = new StateSealer({ keys, ttlSeconds: Math.ceil(ttlMs / 1000) + 60, maxBytes: MAX_TASK_VALUE_CHARACTERS });
    byTtl.set(ttlMs, sealer);
  }
  return sealer;
}

/**
 * HMAC-SHA-256 digests of `value` under the server's keys (`pause.keys`, else the process's own),
 * one per key, the first key's first: what a task store keeps instead of a task id or a principal
 * (DESIGN §2.13), so Redis never holds either, and someone without the keys cannot tell them from
 * it. Every key's digest matches, so keys rotate as for sealing. `purpose` separates the uses.
 *
 * @example
 * ```ts
 * const [ref] = keyedDigests(options.pause, 'task', taskId); // what the store keys the task by
 * ```
 */
export function keyedDigests(options: StateSealingOptions | undefined, purpose: string, value: string): string[] {
  let keys = options ? digestKeys.get(options) : processDigestKeys;
  if (!keys) {
    keys = deriveStateKeys((options ?? processKeys()).keys).map((key) =>
      Buffer.from(hkdfSync('sha256', key, 'mcpflow', 'mcpflow task digests v1', 32)),
    );
    if (options) digestKeys.set(options, keys);
    else processDigestKeys = keys;
  }
  return keys.map((key) => createHmac('sha256', key).update(purpose).update('\0').update(value).digest('base64url'));
}
