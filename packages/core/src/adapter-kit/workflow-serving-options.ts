import type { ExecutionLimits, WorkflowHooks } from '../engine';
import type { PauseOptions } from './pause/pause-options';

/**
 * What a WorkflowServer takes besides its SDK's own server options, the same on both lines:
 * observability hooks (`onStep`, `onRunEnd`), the limits of every run (`defaultStepTimeoutMs`,
 * `maxTraceBytes`), how long an answer asked in place may take, and how a paused run is sealed.
 *
 * @example
 * ```ts
 * new WorkflowServer({ name: 'svc', version: '1.0.0' }, { onStep: log, defaultStepTimeoutMs: 10_000, pause: { keys: [key] } });
 * ```
 */
export interface WorkflowServingOptions extends WorkflowHooks, ExecutionLimits {
  /** How long a run waits for one answer asked in place (a 2025 session). Default 10 minutes. */
  askTimeoutMs?: number;
  /**
   * How a run that asks the client (`askUser`, `askModel`) is sealed into `requestState` on
   * protocol 2026-07-28 (SDK 2.x): `keys` (32 bytes or more each; the first seals, all open — share
   * them across instances), `ttlSeconds` (default 600), `maxBytes` (default 512 KiB), `replayGuard`
   * (default `memoryReplayGuard()`, one per process; `redisReplayGuard(client)` for several
   * instances). Without it, a random key per process is used: pausing then works only when one
   * process serves every round.
   */
  pause?: PauseOptions;
}
