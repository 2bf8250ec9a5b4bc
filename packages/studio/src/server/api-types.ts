import type { StepInfo } from '@mcpflow/core/model';

/** The studio's JSON API (packages/studio/API.md): what the page reads and sends. */

export type ConnectionState = 'connecting' | 'connected' | 'failed' | 'reconnecting';

/** `GET /api/server`. */
export interface ServerView {
  readonly connection: {
    state: ConnectionState;
    error?: string;
    stderr?: string;
    target: string;
    /** How a stdio server's process ended on its own (a crash): its exit code, or the signal that killed it. */
    exit?: { code: number | null; signal: string | null };
  };
  readonly server?: { name: string; version: string; protocolVersion?: string };
}

export type Face = 'prompt' | 'tool' | 'task';

/** One workflow of `GET /api/workflows`, from its prompt and tool entries' `_meta["mcpflow/workflow"]`. */
export interface WorkflowView {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments: { name: string; description?: string; required: boolean }[];
  readonly faces: { prompt: boolean; tool: boolean; task: boolean };
  readonly steps: readonly StepInfo[];
  readonly mermaid: string;
  /** The arguments whose values are sensitive (`_meta["mcpflow/workflow"].sensitive`): the studio keeps and shows them `[redacted]`. */
  readonly sensitive: readonly string[];
}

/** A workflow the studio cannot offer, and why. */
export interface WorkflowProblem {
  readonly name: string;
  readonly error: string;
}

export type RunStatus = 'running' | 'completed' | 'failed' | 'handoff' | 'cancelled';

/** A message of the run's conversation. */
export interface RunMessage {
  readonly role: 'user' | 'assistant';
  readonly content: unknown;
}

/**
 * A step's status in a run: `pending` until the server tells of it, then `running`, `waiting` (on
 * the user's answer), and how it ended (`completed`, `skipped`, `failed`, `cancelled`, `handoff`).
 */
export interface StepState {
  step: string;
  status: string;
}

/** A tool step's input and output as the server's trace shows them (sensitive values redacted by the server); why it did not complete. */
export interface StepIO {
  step: string;
  /** The tool's arguments (a `forEach` step: one per item). */
  input?: unknown;
  /** The tool's result (a `forEach` step: one per item). */
  output?: unknown;
  reason?: string;
}

/** A row of the run's timeline: one per step (per iteration for `forEach`). */
export interface TimelineRow {
  step: string;
  status: string;
  durationMs?: number;
  /** When the step (or item) started, in ms since the run started: from progress, else laid out after the steps before it. */
  startMs?: number;
  group?: string;
  iteration?: number;
  /** On a `forEach` step's row: how many of its iterations have no row (past `MAX_ITERATION_ROWS`). */
  iterationsNotShown?: number;
}

/** `GET /api/runs/:runId`. */
export interface RunView {
  readonly runId: string;
  readonly workflow: string;
  readonly face: Face;
  status: RunStatus;
  reason?: string;
  messages: RunMessage[];
  timeline: TimelineRow[];
  /** Each step's status, in the workflow's order: live while the run goes on, final with its result. */
  steps: StepState[];
  /** Each tool step's input and output, once the run has ended. */
  io: StepIO[];
  execution?: unknown;
  /** The arguments the run was started with, as the page sent them: Rerun fills the form with them. */
  arguments?: Record<string, unknown>;
  /** The server's record of the run (`_meta["mcpflow/run"]` of its result; a server in dev mode only): present, the run can be rerun. */
  serverRun?: { id: string; from?: string };
  /** The version of the workflow the run started or resumed on (DESIGN §2.16), as its server says; absent when the workflow declares none. */
  version?: string;
  /** The studio run this one reruns. */
  rerunOf?: string;
  /** The step it reruns from (absent: from the start). */
  rerunFrom?: string;
}

/** A run as the runs panel lists it (`GET /api/runs`, and the `run` events of `GET /api/events`). */
export interface RunSummary {
  readonly runId: string;
  readonly workflow: string;
  readonly face: Face;
  readonly status: RunStatus;
  /** When the run started and ended, ms since the epoch. */
  readonly startedAt: number;
  readonly endedAt?: number;
  /** The arguments it was started with, as the page sent them (capped). */
  readonly arguments: Record<string, unknown>;
  readonly taskId?: string;
  readonly taskStatus?: string;
  /** How many of its questions wait on an answer. */
  readonly openQuestions: number;
  /** The version of the workflow it started or resumed on, once its server said (RunView.version). */
  readonly version?: string;
}

/** An event of `GET /api/runs/:runId/events`. */
export interface RunEvent {
  readonly type: 'progress' | 'step' | 'question' | 'question-closed' | 'task' | 'result' | 'error';
  readonly data: unknown;
}

/** The step a task runs or waits at (from the server's `_meta["mcpflow/task"]`). */
export interface TaskStepView {
  readonly step: string;
  /** From 0: the graph's node `s<stepIndex>`. */
  readonly stepIndex: number;
  readonly steps: number;
}

/** The data of a run's `task` event: the task's status, and the step it runs or waits at while it is live. */
export interface TaskEvent {
  /** Absent only when the call was cancelled before the server made the task. */
  readonly taskId?: string;
  readonly status: string;
  readonly step?: TaskStepView;
  /** The version of the workflow the task runs on, once its server said (RunView.version). */
  readonly version?: string;
}

/** An input of a plain tool's form, from its JSON Schema property. */
export interface InspectorInput {
  readonly name: string;
  readonly type: 'number' | 'integer' | 'boolean' | 'enum' | 'text';
  readonly required: boolean;
  readonly description?: string;
  /** For `enum`: the choices (strings, numbers or booleans). */
  readonly choices?: readonly (string | number | boolean)[];
}

/** `GET /api/inspector`: the server's plain tools, prompts and resources (DESIGN §2.15, the Inspector). */
export interface InspectorListing {
  readonly tools: { name: string; description?: string; inputs: InspectorInput[] }[];
  readonly prompts: { name: string; description?: string; arguments: { name: string; required: boolean; description?: string }[] }[];
  readonly resources: { uri: string; name: string; description?: string }[];
}

/** An error answer: a message a user can act on, and the field it is about. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}
