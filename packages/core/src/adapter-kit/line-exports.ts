/**
 * What `@mcpflow/core/v1` and `@mcpflow/core/v2` both export besides their own `WorkflowServer`,
 * `serveStdio` and `serveHttp`: the limits and hooks of a run, what a run reports, the replay
 * guards of paused runs, and the errors serving throws. Listed once, so the two entries cannot drift apart.
 */
export {
  DEFAULT_MAX_TRACE_BYTES,
  DEFAULT_STEP_TIMEOUT_MS,
  EXECUTION_META_KEY,
  InvalidServerOptionError,
  QUESTION_META_KEY,
  TIMING_META_KEY,
  REDACTED,
  type ExecutionLimits,
  type ExecutionMeta,
  type ExecutionStatus,
  type IterationRef,
  type IterationsMeta,
  type RunEndEvent,
  type StepEvent,
  type StepMeta,
  type StepStatus,
  type TraceTruncation,
  type WorkflowHooks,
} from '../engine';
export { ReplayGuardError, type PausedRound, type ReplayGuard, type ReplayGuardProblem, type ReplayVerdict } from '../engine';
export { RUN_META_KEY, runOf, type RunMeta } from './run/run-meta';
export { memoryReplayGuard, type MemoryReplayGuardOptions } from './pause/memory-replay-guard';
export { redisReplayGuard, type RedisReplayGuardOptions } from './pause/redis-replay-guard';
export type { IoredisClientLike, NodeRedisClientLike, NodeRedisClusterLike, RedisClientLike } from './pause/redis-client';
export type { PauseOptions } from './pause/pause-options';
export type { WorkflowServing } from './serving-workflows';
export type { WorkflowServingOptions } from './workflow-serving-options';
export type { PrincipalAuthInfo, PrincipalOption } from './run/request-principal';
export type { WorkflowLogger } from './telemetry/debug-log';
export {
  InvalidServingOptionError,
  MissingServingPackageError,
  UnguardedBindingError,
  type HttpServing,
  type StdioServing,
  type StdioServingOptions,
  memoryEventStore,
  type MemoryEventStoreOptions,
  type SessionEventStore,
} from './serving';
