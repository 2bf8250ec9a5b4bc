/** The `_meta` key of a workflow result's execution summary. */
export const EXECUTION_META_KEY = 'mcpflow/execution';

/** How a step ended; `skipped` steps were never reached. */
export type StepStatus = 'completed' | 'handoff' | 'failed' | 'cancelled' | 'skipped';

/** How an execution ended. */
export type ExecutionStatus = 'completed' | 'handoff' | 'failed' | 'cancelled';

/** `_meta["mcpflow/execution"]` of a workflow's `prompts/get` result. */
export interface ExecutionMeta {
  status: ExecutionStatus;
  steps: { name: string; status: StepStatus }[];
  stoppedAt?: string;
  reason?: string;
}

/** What `onStep` sees: once as a step starts, once as it ends. */
export type StepEvent =
  | { readonly phase: 'start'; readonly workflow: string; readonly step: string; readonly index: number; readonly total: number }
  | {
      readonly phase: 'end';
      readonly workflow: string;
      readonly step: string;
      readonly index: number;
      readonly total: number;
      readonly status: Exclude<StepStatus, 'skipped'>;
      readonly durationMs: number;
      /** Why a step did not complete (redacted like the trace). */
      readonly reason?: string;
    };

/** Observability hooks of a WorkflowServer; they see but never change the trace. */
export interface WorkflowHooks {
  /** Called as each step starts and ends, for logging and audit. A hook that throws is reported on stderr and ignored. */
  onStep?(event: StepEvent): void | Promise<void>;
}
