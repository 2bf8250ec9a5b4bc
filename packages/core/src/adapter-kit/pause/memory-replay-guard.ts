import { ExpiryQueue } from './expiry-queue';
import { pausedRoundKey, type PausedRound, type ReplayGuard, type ReplayVerdict } from '../../engine/sealing/replay-guard';
import { ReplayGuardError } from '../../engine/sealing/replay-guard-error';

/** Options of `memoryReplayGuard`. */
export interface MemoryReplayGuardOptions {
  /**
   * The most rounds remembered at once (each until its state expires). Default 100,000 — about
   * 20 MB at most, room for 160 resumes a second with states that live 600 s. When it is
   * full, a resume is refused (`ReplayGuardError`, problem `full`) rather than an unexpired round
   * forgotten, which would let that round be replayed.
   */
  readonly maxEntries?: number;
}

const DEFAULT_MAX_REPLAY_ENTRIES = 100_000;

/**
 * A replay guard in this process's memory: each consumed round is kept until its state expires,
 * and forgotten then (expired rounds are dropped as new ones come, earliest first).
 * `memoryReplayGuard()` gives the process-wide instance; build one directly only for a store of
 * its own (e.g. in a test).
 */
export class MemoryReplayGuard implements ReplayGuard {
  private readonly expiries = new Map<string, number>();
  private readonly queue = new ExpiryQueue();

  constructor(
    readonly maxEntries: number = DEFAULT_MAX_REPLAY_ENTRIES,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
      throw new RangeError(`memoryReplayGuard: maxEntries must be a whole number of at least 1, not ${maxEntries}.`);
  }

  /** How many rounds are remembered now. */
  get size(): number {
    return this.expiries.size;
  }

  async consume(round: PausedRound): Promise<ReplayVerdict> {
    const key = pausedRoundKey(round);
    const now = this.now();
    for (const expired of this.queue.takeExpired(now)) this.expiries.delete(expired);
    if (this.expiries.has(key)) return 'replayed';
    if (this.expiries.size >= this.maxEntries) {
      throw new ReplayGuardError(
        'full',
        `mcpflow replay guard: this process already remembers ${this.maxEntries} resumed rounds whose states have not expired ` +
          `(memoryReplayGuard maxEntries), so this resume is refused rather than one of them forgotten. ` +
          `Raise maxEntries, shorten pause.ttlSeconds, or share the rounds in Redis with redisReplayGuard(client).`,
      );
    }
    // Remembered through the state's last valid millisecond (a state with 0 ms left still opens).
    const expiresAt = now + Math.ceil(round.ttlMs);
    this.expiries.set(key, expiresAt);
    this.queue.add(key, expiresAt);
    return 'first';
  }
}

const processGuards = new Map<number, MemoryReplayGuard>();

/**
 * The replay guard of this process (DESIGN §2.8 "Single use"): every call with the same options
 * returns the same store, so every server the process builds — `serveHttp` and `createMcpHandler`
 * build one per request — shares it, even when a factory writes `memoryReplayGuard()` inline. It
 * is the default `pause.replayGuard`. It protects one process only: with several instances behind
 * a load balancer, a replay sent to another instance is not seen — use `redisReplayGuard(client)`.
 *
 * @example
 * ```ts
 * const server = new WorkflowServer(info, { pause: { keys: [process.env.MCPFLOW_STATE_KEY!], replayGuard: memoryReplayGuard() } });
 * ```
 */
export function memoryReplayGuard(options: MemoryReplayGuardOptions = {}): ReplayGuard {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_REPLAY_ENTRIES;
  let guard = processGuards.get(maxEntries);
  if (!guard) {
    guard = new MemoryReplayGuard(maxEntries);
    processGuards.set(maxEntries, guard);
  }
  return guard;
}
