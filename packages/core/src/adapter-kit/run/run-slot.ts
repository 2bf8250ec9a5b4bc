import type { AskResponse, InPlaceAskChannel } from '../../engine';
import { runQueue, type RunLane } from './run-queue';

/**
 * An admitted run's place under the run caps (`maxConcurrentRuns`, `maxConcurrentRunsPerSession`),
 * given up while the run waits for answers asked in place (DESIGN §1 "Load limits": the caps count
 * runs executing; waiting runs are bounded by `maxPendingAsksPerSession` and `maxPendingAsks`).
 * The first question out releases the place (to the next run waiting for one); the last answer in
 * (or its timeout, cancel or disconnect) takes it back without a check, so the count may pass a cap
 * briefly; the run's end releases it if held. Questions asked together (a parallel group) release it once.
 *
 * @example
 * ```ts
 * const slot = await admission.enter(sessionId, signal);   // RunAdmission makes it
 * const asking = slot.releasing(line.askInPlace(server, context, askTimeoutMs));
 * try { await run(asking); } finally { slot.end(); }
 * ```
 */
export class RunSlot {
  private waiting = 0;
  private held = true;
  private ended = false;

  constructor(
    private readonly lane: RunLane,
    /** Called once, when the run ends: the lane no longer counts it. */
    private readonly done: () => void,
  ) {}

  /** `channel`, with the run's place given up while any question it sent waits for its answer. */
  releasing(channel: InPlaceAskChannel): InPlaceAskChannel {
    return {
      mode: 'in-place',
      supports: (capability) => channel.supports(capability),
      send: (request, signal) => {
        this.asked();
        let sent: Promise<AskResponse>;
        try {
          sent = channel.send(request, signal);
        } catch (error) {
          this.answered();
          throw error;
        }
        return sent.finally(() => this.answered());
      },
    };
  }

  /** The run ended: its place is released, if it holds it. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
    this.done();
  }

  private asked(): void {
    this.waiting += 1;
    if (this.waiting === 1) this.release();
  }

  private answered(): void {
    this.waiting -= 1;
    if (this.waiting === 0 && !this.ended && !this.held) {
      runQueue.start(this.lane);
      this.held = true;
    }
  }

  private release(): void {
    if (!this.held) return;
    this.held = false;
    runQueue.end(this.lane);
  }
}
