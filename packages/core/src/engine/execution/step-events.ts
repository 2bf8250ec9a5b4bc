import type { WorkflowRunStatus } from '../../model';
import type { IterationRef } from '../flow/flow-observer';
import type { StepStatus } from '../flow/flow-outcome';
import type { IterationsMeta } from '../flow/iterations-meta';
import type { TraceTruncation } from '../trace/bound-trace';

/** The `_meta` key of a workflow result's execution summary. */
export const EXECUTION_META_KEY = 'mcpflow/execution';

/**
 * The `_meta` key of the run: in a tool's request context during a run, `{ id }` (`runOf`); in a
 * workflow result, `{ version }` — the `@Workflow` `version` of the class the run went on in, only
 * when that class declares one (DESIGN §2.16).
 */
export const RUN_META_KEY = 'mcpflow/run';

/**
 * The request `_meta` key a client sets to `true` to get each step's `durationMs` (and a `forEach`
 * step's `iterationDurationsMs`) in `_meta["mcpflow/execution"]`; without it results carry no time.
 */
export const TIMING_META_KEY = 'mcpflow/timing';

/** How an execution ended. */
export type ExecutionStatus = WorkflowRunStatus;

/** One step in `_meta`: its status; why it was skipped or did not complete; its iterations. */
export interface StepMeta {
  name: string;
  status: StepStatus;
  reason?: string;
  iterations?: IterationsMeta;
  /**
   * How long the step ran, in milliseconds, in the round it ran — only when the request asked for
   * timing (`_meta["mcpflow/timing"]: true`) and the step ran (absent for a step not reached).
   */
  durationMs?: number;
  /** A `forEach` step run with timing on: each iteration's duration in milliseconds, by element index (`null`: it did not run). */
  iterationDurationsMs?: (number | null)[];
}

/** `_meta["mcpflow/execution"]` of a workflow's `prompts/get` result. */
export interface ExecutionMeta {
  status: ExecutionStatus;
  steps: StepMeta[];
  stoppedAt?: string;
  reason?: string;
  /** Present when messages were cut to keep the result within `maxTraceBytes`. */
  truncated?: TraceTruncation;
  /** How many times the run waited on the client (present once a question was put). */
  rounds?: number;
  /** The questions put to the client and how each ended. */
  questions?: { step: string; key: string; kind: 'askUser' | 'askModel'; status: string; attempts: number }[];
}

/**
 * What `onStep` sees: once as a step starts, once as it ends; inside a `forEach` step also once as
 * each iteration starts and ends (with `iteration`). A step skipped by `when` ends `skipped`.
 */
export type StepEvent =
  | {
      readonly phase: 'start';
      readonly workflow: string;
      readonly step: string;
      readonly index: number;
      readonly total: number;
      readonly iteration?: IterationRef;
    }
  | {
      readonly phase: 'end';
      readonly workflow: string;
      readonly step: string;
      readonly index: number;
      readonly total: number;
      readonly iteration?: IterationRef;
      readonly status: StepStatus;
      readonly durationMs: number;
      /** Why a step did not complete (redacted like the trace). */
      readonly reason?: string;
    };

/** What `onRunEnd` sees: how a run ended, and what its steps bound. */
export interface RunEndEvent {
  readonly workflow: string;
  readonly status: ExecutionStatus;
  /** Each completed step's value (transformed), by its `@Bind` name; redacted like the trace. */
  readonly outputs: Readonly<Record<string, unknown>>;
}

/** Observability hooks of a WorkflowServer; they see but never change the trace. */
export interface WorkflowHooks {
  /** Called as each step starts and ends, for logging and audit. A hook that throws is reported on stderr and ignored. */
  onStep?(event: StepEvent): void | Promise<void>;
  /**
   * Called once as each run ends (completed, handed off, failed or cancelled; not when it pauses
   * for answers), before its result is sent: for tests and audit of what the steps produced. A hook
   * that throws is reported on stderr and ignored.
   */
  onRunEnd?(event: RunEndEvent): void | Promise<void>;
}
