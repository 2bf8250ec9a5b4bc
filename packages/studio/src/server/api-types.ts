import type { StepInfo } from '@mcpflow/core/model';

/** The studio's JSON API (packages/studio/API.md): what the page reads and sends. */

export type ConnectionState = 'connecting' | 'connected' | 'failed' | 'reconnecting';

/** `GET /api/server`. */
export interface ServerView {
  readonly connection: { state: ConnectionState; error?: string; stderr?: string; target: string };
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
}

/** An event of `GET /api/runs/:runId/events`. */
export interface RunEvent {
  readonly type: 'progress' | 'step' | 'question' | 'question-closed' | 'task' | 'result' | 'error';
  readonly data: unknown;
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
