import type { ExecutionLimits, WorkflowHooks } from '../engine';
import type { PauseOptions } from './pause/pause-options';
import type { PrincipalOption } from './run/request-principal';
import type { TaskStore } from './tasks/task-store';
import type { WorkflowLogger } from './telemetry/debug-log';

/**
 * What a WorkflowServer takes besides its SDK's own server options, the same on both lines:
 * observability hooks (`onStep`, `onRunEnd`), the limits of every run (`defaultStepTimeoutMs`,
 * `maxTraceBytes`), how long an answer asked in place may take, how a paused run is sealed, and
 * how runs are observed (`telemetry`, `logger`).
 *
 * @example
 * ```ts
 * new WorkflowServer({ name: 'svc', version: '1.0.0' }, { onStep: log, defaultStepTimeoutMs: 10_000, pause: { keys: [key] } });
 * ```
 */
export interface WorkflowServingOptions extends WorkflowHooks, ExecutionLimits {
  /**
   * How long a run waits for one answer asked in place (a 2025 session), in ms. Default
   * `DEFAULT_ASK_TIMEOUT_MS`, 2 minutes; the run then hands off, naming the question.
   */
  askTimeoutMs?: number;
  /**
   * The most answers one session waits for at once (questions asked in place and not yet answered,
   * on a 2025 session: a stdio connection, an HTTP session, an in-memory pair). A run that would
   * ask beyond it is refused with an error naming this option (checked before the run caps). Default
   * 100. Runs waiting for answers are bounded by this, not by `maxConcurrentRunsPerSession`.
   */
  maxPendingAsksPerSession?: number;
  /**
   * The most answers this process waits for at once, counting every session of every server it
   * serves (`serveHttp` builds a server per session): what bounds the memory abandoned questions
   * hold. A run that would ask beyond it is refused with an error naming this option. Default 1,000.
   */
  maxPendingAsks?: number;
  /**
   * The most workflow runs this process executes at once, over every session of every server it
   * serves, a task's rounds included. A run beyond it waits for a place (`maxQueuedRuns`,
   * `queueTimeoutMs`), in turn across sessions; it is refused before any step, with a JSON-RPC error
   * naming the option, only when the queue is full or it waited too long (on `prompts/get` and a
   * workflow tool's `tools/call` alike). Default 256. A run waiting for an answer asked in place is
   * not executing: it gives its place up while it waits and takes it back, without a check, when the
   * answer comes (so the count may pass the cap briefly).
   */
  maxConcurrentRuns?: number;
  /**
   * The most workflow runs one session executes at once (a 2025 session: a stdio connection, an
   * HTTP session, an in-memory pair). A run beyond it waits for a place, first come first served in
   * its session. Default 16. A run waiting for an answer asked in place does not count while it
   * waits (`maxPendingAsksPerSession` bounds those); it takes its place back, without a check, when
   * the answer comes, so the count may pass the cap briefly.
   */
  maxConcurrentRunsPerSession?: number;
  /**
   * The most runs that wait for a place at once in this process (over `maxConcurrentRuns` or
   * `maxConcurrentRunsPerSession`); one session may hold a tenth of it (rounded up). A run beyond it
   * is refused at once, before any step, with an error naming this option. Default 1,000; `0`
   * refuses every run that finds no place.
   */
  maxQueuedRuns?: number;
  /**
   * How long a run waits for a place, in ms, before it is refused with an error naming this option.
   * Default 30,000. A task's rounds wait without this bound (the task's TTL and `tasks/cancel` end
   * them); a request cancelled while it waits leaves the queue.
   */
  queueTimeoutMs?: number;
  /**
   * How a run that asks the client (`askUser`, `askModel`) is sealed into `requestState` on
   * protocol 2026-07-28 (SDK 2.x): `keys` (32 bytes or more each; the first seals, all open — share
   * them across instances), `ttlSeconds` (default 600), `maxBytes` (default 512 KiB), `replayGuard`
   * (default `memoryReplayGuard()`, one per process; `redisReplayGuard(client)` for several
   * instances). Without it, a random key per process is used: pausing then works only when one
   * process serves every round.
   */
  pause?: PauseOptions;
  /**
   * OpenTelemetry spans of each run (DESIGN §2.11, docs/tracing.md): on by default when
   * `@opentelemetry/api` is installed, recorded once a tracer provider is registered (without one
   * they cost nothing); `false` turns them off.
   */
  telemetry?: boolean;
  /**
   * Where the debug lines of each run go — one per run start and end, step, question, pause and
   * resume, never a value: a function, or an object with `debug()` such as `console` or a pino
   * logger. Default: stderr when the `DEBUG` environment variable names `mcpflow`, else nowhere.
   */
  logger?: WorkflowLogger;
  /**
   * Where the MCP tasks of this server's task tools live (SDK 2.x, DESIGN §2.13; docs/tasks.md):
   * default `memoryTasks()`, one per process — bounded, expiring, lost on restart.
   */
  tasks?: TaskStore;
  /**
   * Who a request is, from what its transport authenticated (`authInfo`): a task answers only to the
   * principal that created it (DESIGN §2.13). Default: `authInfo.clientId` with the user
   * `extra.sub`, else `extra.subject`, else `extra.userId`, of any JSON type (a numeric user id
   * names a user). Return `undefined` for nobody in particular. Tasks keep it as an HMAC under the
   * server's keys (`pause.keys`), never in clear.
   *
   * @example
   * ```ts
   * new WorkflowServer(info, { principal: (authInfo) => String(authInfo.extra?.tenant) + '/' + String(authInfo.extra?.email) });
   * ```
   */
  principal?: PrincipalOption;
  /**
   * Dev mode (DESIGN §2.15, docs/studio.md): the server keeps a record of each run it ran — its
   * workflow, arguments and each completed step's output as the engine bound it, in this process's
   * memory, the last 100 runs and 64 MiB at most (the oldest go first) — names it in each result's
   * `_meta["mcpflow/run"].id`, and answers `mcpflow/rerun` (run again with the same or edited
   * arguments, or from a step, reusing the earlier steps' recorded outputs). Default: on when the
   * environment has `MCPFLOW_DEV=1` (`mcpflow dev --command` sets it for its child), else off —
   * then nothing is recorded and `mcpflow/rerun` is `-32601` Method not found. Never in production:
   * the records hold the runs' values, secrets included.
   */
  dev?: boolean;
}
