import type { ReplayGuard, StateSealingOptions } from '../../engine';

/**
 * How a WorkflowServer pauses a run on protocol 2026-07-28 (`pause` server option): the keys that
 * seal the run into `requestState`, how long and how large a state may be, and the replay guard
 * that makes each state single use.
 *
 * @example
 * ```ts
 * const pause: PauseOptions = { keys: [process.env.MCPFLOW_STATE_KEY!], replayGuard: redisReplayGuard(redis) };
 * new WorkflowServer({ name: 'deployer', version: '1.0.0' }, { pause });
 * ```
 */
export interface PauseOptions extends StateSealingOptions {
  /**
   * Remembers which paused rounds were resumed, so a state resumes a run once: a replay (or an
   * accept after a decline on the same state) is refused as `InvalidParams`. Default
   * `memoryReplayGuard()`, one per process — right for a single instance. Several instances behind
   * a load balancer share one with `redisReplayGuard(client)`; a guard per instance would let a
   * state be replayed once on each.
   */
  readonly replayGuard?: ReplayGuard;
}
