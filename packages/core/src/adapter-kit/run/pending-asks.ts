import type { InPlaceAskChannel } from '../../engine';
import type { AskLimits } from './ask-limits';
import { PendingAsksRefusal } from './pending-asks-refusal';

/**
 * Answers awaited in this process, over every server it builds: `serveHttp` builds one per session
 * (and 2.x's stdio one per connection), so only a count per process bounds the memory that
 * abandoned questions hold.
 */
let awaitedInProcess = 0;

/**
 * The questions one server has asked in place (2025 sessions) and not yet had answered, counted
 * per session and in the process, and refused beyond the server's caps. A question counts from
 * the moment it is sent until its answer comes, its wait times out (`askTimeoutMs`), its request
 * is cancelled, or the connection closes — whichever is first: each of them settles the SDK's
 * request, and settling releases the count.
 *
 * @example
 * ```ts
 * const pending = new PendingAsks(applyAskLimits(options));
 * const refusal = pending.refusal(sessionId);               // a PendingAsksRefusal when full
 * const asking = pending.bound(line.askInPlace(server, context, limits.askTimeoutMs), sessionId);
 * ```
 */
export class PendingAsks {
  /** By session id; `undefined` is the one session of a connection without ids (stdio, in memory). */
  private readonly bySession = new Map<string | undefined, number>();

  constructor(private readonly limits: AskLimits) {}

  /** `channel`, with each question it sends counted while it waits; a question beyond a cap is not sent. */
  bound(channel: InPlaceAskChannel, session: string | undefined): InPlaceAskChannel {
    return {
      mode: 'in-place',
      supports: (capability) => channel.supports(capability),
      send: (request, signal) => {
        const refusal = this.refusal(session);
        if (refusal) return Promise.reject(refusal);
        this.count(session, 1);
        return channel.send(request, signal).finally(() => this.count(session, -1));
      },
    };
  }

  /** The refusal a run gets when its session, or the process, already waits for all the answers it may. */
  refusal(session: string | undefined): PendingAsksRefusal | undefined {
    const { maxPendingAsks, maxPendingAsksPerSession } = this.limits;
    if (awaitedInProcess >= maxPendingAsks) return new PendingAsksRefusal('maxPendingAsks', maxPendingAsks);
    if ((this.bySession.get(session) ?? 0) >= maxPendingAsksPerSession)
      return new PendingAsksRefusal('maxPendingAsksPerSession', maxPendingAsksPerSession);
    return undefined;
  }

  private count(session: string | undefined, change: 1 | -1): void {
    awaitedInProcess += change;
    const count = (this.bySession.get(session) ?? 0) + change;
    if (count === 0) this.bySession.delete(session);
    else this.bySession.set(session, count);
  }
}
