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
  /**
   * The most of those rounds one client may hold (`PausedRound.client`: its 2025 session, else its
   * authenticated principal, else its address). Default a tenth of `maxEntries` (10,000): one
   * client that keeps resuming — or declining, which consumes a round too — is refused (problem
   * `full`, naming this option) while every other client still resumes. Resumes whose client the
   * server cannot tell (stdio, in memory, a transport of your own) count against `maxEntries` only.
   * Behind a reverse proxy every unauthenticated client has the proxy's address: authenticate
   * them, or raise it.
   */
  readonly maxEntriesPerClient?: number;
}

const DEFAULT_MAX_REPLAY_ENTRIES = 100_000;

/** The share of the guard one client may hold by default: a tenth, so ten clients at their quota are needed to fill it. */
const DEFAULT_CLIENT_SHARE = 10;

/**
 * A replay guard in this process's memory: each consumed round is kept until its state expires,
 * and forgotten then (expired rounds are dropped as new ones come, earliest first).
 * `memoryReplayGuard()` gives the process-wide instance; build one directly only for a store of
 * its own (e.g. in a test).
 */
export class MemoryReplayGuard implements ReplayGuard {
  /** Each remembered round's client (`undefined`: not known), by round key (its expiry is in the queue). */
  private readonly clientOf = new Map<string, string | undefined>();
  /** How many remembered rounds each client holds (a client holding none has no entry). */
  private readonly heldBy = new Map<string, number>();
  private readonly queue = new ExpiryQueue();

  constructor(
    readonly maxEntries: number = DEFAULT_MAX_REPLAY_ENTRIES,
    private readonly now: () => number = Date.now,
    readonly maxEntriesPerClient: number = defaultPerClient(maxEntries),
  ) {
    for (const [option, value] of [
      ['maxEntries', maxEntries],
      ['maxEntriesPerClient', maxEntriesPerClient],
    ] as const) {
      if (!Number.isSafeInteger(value) || value < 1)
        throw new RangeError(`memoryReplayGuard: ${option} must be a whole number of at least 1, not ${value}.`);
    }
  }

  /** How many rounds are remembered now. */
  get size(): number {
    return this.clientOf.size;
  }

  async consume(round: PausedRound): Promise<ReplayVerdict> {
    const key = pausedRoundKey(round);
    const now = this.now();
    for (const expired of this.queue.takeExpired(now)) this.forget(expired);
    if (this.clientOf.has(key)) return 'replayed';
    const { client } = round;
    const held = client === undefined ? 0 : (this.heldBy.get(client) ?? 0);
    if (this.clientOf.size >= this.maxEntries) {
      throw new ReplayGuardError(
        'full',
        `mcpflow replay guard: this process already remembers ${this.maxEntries} resumed rounds whose states have not expired ` +
          `(memoryReplayGuard maxEntries), so this resume is refused rather than one of them forgotten. ` +
          `Raise maxEntries, shorten pause.ttlSeconds, or share the rounds in Redis with redisReplayGuard(client).`,
      );
    }
    if (held >= this.maxEntriesPerClient) {
      throw new ReplayGuardError(
        'full',
        `mcpflow replay guard: this client already holds ${this.maxEntriesPerClient} resumed rounds whose states have not expired ` +
          `(memoryReplayGuard maxEntriesPerClient), so its resume is refused; other clients still resume. ` +
          `Retry once its earlier states expire, or raise maxEntriesPerClient (or shorten pause.ttlSeconds).`,
      );
    }
    // Remembered through the state's last valid millisecond (a state with 0 ms left still opens).
    const expiresAt = now + Math.ceil(round.ttlMs);
    this.clientOf.set(key, client);
    if (client !== undefined) this.heldBy.set(client, held + 1);
    this.queue.add(key, expiresAt);
    return 'first';
  }

  /** Forgets an expired round, and counts it out of its client's quota. */
  private forget(key: string): void {
    const client = this.clientOf.get(key);
    this.clientOf.delete(key);
    if (client === undefined) return;
    const held = this.heldBy.get(client)! - 1;
    if (held === 0) this.heldBy.delete(client);
    else this.heldBy.set(client, held);
  }
}

/** A tenth of the guard's capacity, at least one round. */
function defaultPerClient(maxEntries: number): number {
  return Math.max(1, Math.floor(maxEntries / DEFAULT_CLIENT_SHARE));
}

const processGuards = new Map<string, MemoryReplayGuard>();

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
  const maxEntriesPerClient = options.maxEntriesPerClient ?? defaultPerClient(maxEntries);
  const key = `${maxEntries}/${maxEntriesPerClient}`;
  let guard = processGuards.get(key);
  if (!guard) {
    guard = new MemoryReplayGuard(maxEntries, Date.now, maxEntriesPerClient);
    processGuards.set(key, guard);
  }
  return guard;
}
