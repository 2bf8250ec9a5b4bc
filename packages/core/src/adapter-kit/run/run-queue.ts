/**
 * The runs of one session (or the task rounds of one server) under the run caps: how many execute,
 * and those waiting for a place, first come first served.
 */
export interface RunLane {
  /** Runs of this lane executing now (counted under its caps). */
  running: number;
  /** Runs waiting for a place, oldest first: each is admitted by calling it. */
  readonly waiting: (() => void)[];
  /** The most runs of this lane that execute at once (`maxConcurrentRunsPerSession`; no bound for task rounds). */
  readonly limit: number;
  /** The most runs the process executes at once, as this lane's server counts them (`maxConcurrentRuns`). */
  readonly processLimit: number;
}

/** Runs executing in this process, over every server it builds (`serveHttp` builds one per session or request). */
let runningInProcess = 0;
/** Runs waiting for a place in this process. */
let queuedInProcess = 0;
/**
 * The lanes with runs waiting, in turn order: the lane served last goes to the back, so a session
 * with 100 runs waiting takes one place in turn with a session that has one (round robin, as a
 * worker pool serves its queues).
 */
const lanesWaiting = new Set<RunLane>();

/**
 * The process's places for runs (DESIGN §1 "Load limits"): a run starts at once while its lane and
 * the process have room and nobody of its lane waits before it; else it waits in its lane, and each
 * freed place goes to the next lane in turn. O(1) per run, plus a pass over the waiting lanes when a place frees.
 *
 * @example
 * ```ts
 * if (runQueue.startsNow(lane)) runQueue.start(lane);
 * else runQueue.wait(lane, admit);   // admit() is called once a place is its
 * // … the run ends:
 * runQueue.end(lane);
 * ```
 */
export const runQueue = {
  /** How many runs wait in the process. */
  get queued(): number {
    return queuedInProcess;
  },

  /** Whether a run of `lane` may start now: room in the lane and the process, and no run of the lane waiting before it. */
  startsNow(lane: RunLane): boolean {
    return lane.waiting.length === 0 && lane.running < lane.limit && runningInProcess < lane.processLimit;
  },

  /** Counts a run of `lane` in as executing (also a run taking its place back after an answer, past the caps). */
  start(lane: RunLane): void {
    runningInProcess += 1;
    lane.running += 1;
  },

  /** Queues a run of `lane`; `admit` is called, counted in, once a place is its. */
  wait(lane: RunLane, admit: () => void): void {
    lane.waiting.push(admit);
    queuedInProcess += 1;
    lanesWaiting.add(lane);
  },

  /** Takes a waiting run out of the queue (its request was cancelled, or it waited too long). */
  unwait(lane: RunLane, admit: () => void): void {
    const index = lane.waiting.indexOf(admit);
    if (index < 0) return;
    lane.waiting.splice(index, 1);
    queuedInProcess -= 1;
    if (lane.waiting.length === 0) lanesWaiting.delete(lane);
  },

  /** Counts a run of `lane` out, and hands the freed places to the lanes waiting, in turn. */
  end(lane: RunLane): void {
    runningInProcess -= 1;
    lane.running -= 1;
    let admitted = true;
    while (admitted && lanesWaiting.size > 0) {
      admitted = false;
      for (const waiting of [...lanesWaiting]) {
        if (waiting.running >= waiting.limit || runningInProcess >= waiting.processLimit) continue;
        const admit = waiting.waiting.shift()!;
        queuedInProcess -= 1;
        // Served: to the back of the turn, or out when it has nobody waiting.
        lanesWaiting.delete(waiting);
        if (waiting.waiting.length > 0) lanesWaiting.add(waiting);
        runQueue.start(waiting);
        admit();
        admitted = true;
      }
    }
  },
};
