import { randomBytes } from 'node:crypto';
import { StateSealer, type StateSealingOptions } from '../../engine';

const sealers = new WeakMap<StateSealingOptions, StateSealer>();
const taskSealers = new WeakMap<StateSealingOptions, Map<number, StateSealer>>();
let processKey: Buffer | undefined;
let processSealer: StateSealer | undefined;
const processTaskSealers = new Map<number, StateSealer>();

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
