/** What a pool holds for a session: anything it can close to release the session's memory. */
export interface ClosableSession {
  close(): Promise<void>;
}

/** The limits of a {@link SessionPool}. */
export interface SessionLimits {
  /** Sessions held at once, counting those being created. */
  maxSessions: number;
  /** A session with no request in progress for this long is closed. */
  idleTimeoutMs: number;
  /** Where a failure to close an idle session is reported. */
  onerror: (error: Error) => void;
}

interface PooledSession<S> {
  readonly session: S;
  inProgress: number;
  /** When a request of the session last started or ended, on the pool's own clock. */
  lastUsed: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * The sessions of a sessionful (2025-era) HTTP endpoint, bounded in number and in idle time, so
 * a flood of `initialize` requests cannot grow the server's memory without end and an abandoned
 * session does not live forever. SDK-free: the adapters store their transport and server in it.
 *
 * A session counts as busy while one of its requests is in progress (a long workflow, or the
 * client's open notification stream, is never cut off); from the end of its last request it is
 * idle, and after `idleTimeoutMs` it is closed. When the pool is full, a new session takes the
 * place of the idle session used least recently; only when every session is busy is it refused.
 *
 * @example
 * const pool = new SessionPool<Session>({ maxSessions: 100, idleTimeoutMs: 600_000, onerror: console.error });
 * if (!pool.reserve()) return tooManySessions(response);
 * // …create the session; when its id is known:
 * pool.admit(id, session);
 */
export class SessionPool<S extends ClosableSession> {
  private readonly sessions = new Map<string, PooledSession<S>>();
  private reservations = 0;
  /** Orders uses without reading the time: each start or end of a request ticks it. */
  private clock = 0;

  constructor(private readonly limits: SessionLimits) {}

  /** The most sessions held at once. */
  get capacity(): number {
    return this.limits.maxSessions;
  }

  /** Sessions open or being created. */
  get size(): number {
    return this.sessions.size + this.reservations;
  }

  /**
   * Claims room for a session about to be created, closing the idle session used least recently
   * when the pool is full; `false` when the pool is full of busy sessions.
   */
  reserve(): boolean {
    if (this.size >= this.limits.maxSessions && !this.closeLeastRecentlyUsedIdle()) return false;
    this.reservations++;
    return true;
  }

  /** Gives back a reservation that did not become a session (the request was not an `initialize`, or failed). */
  release(): void {
    this.reservations--;
  }

  /** Turns a reservation into the open session `id`, idle from now. */
  admit(id: string, session: S): void {
    this.reservations--;
    const pooled: PooledSession<S> = { session, inProgress: 0, lastUsed: ++this.clock };
    this.sessions.set(id, pooled);
    this.startIdling(id, pooled);
  }

  /** The open session `id`, if any. */
  get(id: string): S | undefined {
    return this.sessions.get(id)?.session;
  }

  /**
   * Marks a request of session `id` in progress: the session cannot idle out until the returned
   * function is called, when the request ends. A no-op for an unknown id.
   */
  track(id: string): () => void {
    const pooled = this.sessions.get(id);
    if (!pooled) return () => {};
    pooled.inProgress++;
    pooled.lastUsed = ++this.clock;
    clearTimeout(pooled.idleTimer);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      pooled.inProgress--;
      pooled.lastUsed = ++this.clock;
      if (pooled.inProgress === 0 && this.sessions.get(id) === pooled) this.startIdling(id, pooled);
    };
  }

  /** Forgets session `id` (it closed by itself: the client ended it, or its transport closed). */
  forget(id: string): void {
    const pooled = this.sessions.get(id);
    if (!pooled) return;
    clearTimeout(pooled.idleTimer);
    this.sessions.delete(id);
  }

  /** Closes every session (on shutdown). */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.keys()];
    await Promise.all(open.map((id) => this.close(id)));
  }

  /** Closes the idle session used least recently, if there is one; its place is free at once. */
  private closeLeastRecentlyUsedIdle(): boolean {
    let idlest: [string, PooledSession<S>] | undefined;
    for (const entry of this.sessions) if (entry[1].inProgress === 0 && (!idlest || entry[1].lastUsed < idlest[1].lastUsed)) idlest = entry;
    if (!idlest) return false;
    // close() forgets the session before it awaits anything: the place is free now.
    void this.close(idlest[0]);
    return true;
  }

  private startIdling(id: string, pooled: PooledSession<S>): void {
    pooled.idleTimer = setTimeout(() => void this.close(id), this.limits.idleTimeoutMs).unref();
  }

  private async close(id: string): Promise<void> {
    const pooled = this.sessions.get(id);
    if (!pooled) return;
    this.forget(id);
    try {
      await pooled.session.close();
    } catch (error) {
      this.limits.onerror(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
