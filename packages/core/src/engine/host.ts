import type { AskChannel } from './asking/ask-channel';
import type { SignalSource } from './cancellation/signal-source';
import type { ResourceResult, ToolResult } from './content';
import type { RunSecrets } from './redaction/run-secrets';
import type { RunObserver } from './run-observer';

/**
 * A tool as the engine sees it: what the plan and handoff messages show. The adapter's own handle
 * (the SDK's registration) is passed back to the host's methods as is.
 */
export interface HostTool {
  readonly enabled: boolean;
  readonly description?: string;
}

/** See `Host.tools`: what a cached plan message is checked against. */
export interface ToolsRevision {
  readonly revision: number;
}

/** One input of a tool, as `tools/list` describes it. */
export interface ToolInput {
  readonly name: string;
  readonly required: boolean;
  readonly type?: string;
  readonly description?: string;
}

/** A step's arguments after the tool's input schema parsed them, or why they do not fit it. */
export type ValidatedInput = { readonly ok: true; readonly args: unknown } | { readonly ok: false; readonly message: string };

/** The run a tool is called by, as its handler sees it in `_meta["mcpflow/run"]`. */
export interface ToolRun {
  /** The run's id: the same in every round of the run, on every instance. */
  readonly id: string;
  /** The step that calls the tool (a `forEach` step's items share it). */
  readonly step: string;
}

/**
 * A run's state as a host's `checkpoint` hook is told it: the executor's `ExecutionState` (opaque
 * at this level, below the plan), to seal with `sealCheckpoint`.
 */
export interface RunState {
  /** The run's id, the same in every round and after every takeover. */
  readonly runId: string;
  /** The index of the next step to run. */
  readonly position: number;
}

/** One `notifications/progress` update. */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total: number;
  readonly message: string;
}

/**
 * Everything the engine needs from the MCP server it runs on, for one `prompts/get`. Each SDK line's
 * adapter implements it over its own registrations and request context; the engine never sees an SDK.
 *
 * Sync-or-async results (`T | PromiseLike<T>`) let a plain tool step stay at one await: the adapter
 * answers synchronously when the schema allows.
 *
 * @example
 * ```ts
 * const result = await executeWorkflow(plan, args, new V1Host(registry, extra), hooks);
 * ```
 */
export interface Host<Tool extends HostTool = HostTool> extends SignalSource {
  /** The request's signal: aborted when the client cancels or goes away. */
  readonly signal: AbortSignal;
  /** The tool registered under `name` now (looked up at call time, so renames and removals count). */
  findTool(name: string): Tool | undefined;
  /** The workflow a tool runs, when it is a workflow served as a tool (a step calling it runs a sub-workflow); absent: none is. */
  workflowOf?(tool: Tool): string | undefined;
  /**
   * The tools as they stand: one object per server, whose `revision` changes whenever a tool is
   * registered, updated (renamed, described, enabled, disabled) or removed. The plan message, which
   * names each tool's description, is built again only when it changes. Absent: built every run.
   */
  readonly tools?: ToolsRevision;
  /** The inputs the tool declares. */
  toolInputs(tool: Tool): readonly ToolInput[];
  /** Parses arguments exactly as `tools/call` would, with the same message when they do not fit. */
  validateToolInput(tool: Tool, name: string, args: Record<string, unknown>): ValidatedInput | PromiseLike<ValidatedInput>;
  /**
   * Runs the tool's handler in process with the request's context, its signal read from `signal`
   * when the handler reads it (a try's signal is made only then; the host itself stands for the
   * request's own signal) and the run added (`_meta["mcpflow/run"]`: `{ id, step }`, the run's id
   * stable across rounds and the step that calls the tool — for idempotency keys). Returns what the handler returns (maybe a promise or another thenable);
   * throws what it throws. `secrets`: the run's own, for a workflow the tool runs in turn (a
   * sub-workflow), which then redacts them too (`inheritedSecrets`).
   */
  invokeTool(tool: Tool, name: string, args: unknown, signal: SignalSource, run: ToolRun, secrets?: RunSecrets): unknown;
  /**
   * For a run that is a step of another (a sub-workflow): the outer run's secrets, redacted by this
   * run as well, wherever they show — so an outer sensitive value passed to an inner workflow
   * that does not mark it stays redacted in the inner trace, `_meta` and hooks.
   */
  readonly inheritedSecrets?: RunSecrets;
  /** Checks a handler's return as `tools/call` does: a tool result, structured content matching the output schema. */
  checkToolResult(tool: Tool, name: string, value: unknown): ToolResult | PromiseLike<ToolResult>;
  /** Reads a URI in process through the handler `resources/read` would pick, its signal read from `signal` as `invokeTool`'s; throws when none serves it. */
  readResource(uri: string, signal: SignalSource): Promise<ResourceResult>;
  /** Sends progress to the client; absent when the request asked for none. */
  readonly notifyProgress?: (update: ProgressUpdate) => Promise<void>;
  /**
   * The request asked for step timing (`_meta["mcpflow/timing"]: true`): each step's (and each
   * `forEach` iteration's) `durationMs` goes into `_meta["mcpflow/execution"]`. Absent or false: the
   * result carries no duration (it stays byte-stable).
   */
  readonly timing?: boolean;
  /** How this request can ask the client (elicitation, sampling); absent when it cannot ask at all. */
  readonly asking?: AskChannel;
  /**
   * Told the run's state after each step (or parallel group) that completed without stopping the
   * run: the same value a pause seals (seal it with `sealCheckpoint`, go on from it with
   * `continueWorkflowRound`), for a host that keeps runs durable (a task store). The run waits for
   * it; what it throws fails the request. Absent: nothing is done.
   */
  checkpoint?(state: RunState): void | PromiseLike<void>;
  /**
   * Asked before each step (or parallel group) starts, after the last checkpoint: a host that must
   * prove it may still run the run (a task round's fence, §2.13) refuses by aborting `signal` — the
   * step then never starts and the run stops as cancelled. The run waits only for a promise. Absent:
   * every step starts.
   */
  beforeStep?(state: RunState): void | PromiseLike<void>;
  /** What reports this request's share of the run (the span to report under, the debug log); absent when nothing does. */
  readonly observer?: RunObserver;
}
