// The shapes of packages/studio/API.md the page reads: the server's own types (packages/studio/src/server/api-types.ts),
// imported type-only, so esbuild drops the import and the page bundles nothing of the server.
import type { RunEvent, RunSummary, RunView, WorkflowProblem, WorkflowView } from '../../src/server/api-types';

export type { RunSummary } from '../../src/server/api-types';
export type {
  Face,
  InspectorInput,
  InspectorListing,
  ServerView as ServerState,
  StepIO,
  StepState,
  TaskEvent,
  TimelineRow,
  WorkflowView as Workflow,
} from '../../src/server/api-types';

export interface WorkflowList {
  workflows: WorkflowView[];
  problems: WorkflowProblem[];
}

/** A content block of a run's messages, as the page shows it. */
export interface ContentBlock {
  type: string;
  text?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

/** `GET /api/runs/:runId`, its messages' content read as content blocks. */
export interface Run extends Omit<RunView, 'messages'> {
  messages: { role: 'user' | 'assistant'; content: ContentBlock }[];
}

export interface Progress {
  message?: string;
  progress: number;
  total?: number;
  at: number;
}

/** An elicitation form's schema: a flat object of primitive fields (MCP restricts it so). */
export interface QuestionSchema {
  properties?: Record<string, { type?: string; title?: string; description?: string; enum?: unknown[]; default?: unknown }>;
  required?: string[];
}

export interface Question {
  questionId: string;
  message: string;
  requestedSchema: QuestionSchema;
}

export interface TaskRow {
  taskId: string;
  runId: string;
  workflow: string;
  status: string;
  statusMessage?: string;
}

/** `GET /api/runs`: the runs the studio keeps, oldest first, and how much of its bounds they use. */
export interface RunList {
  runs: RunSummary[];
  kept: { runs: number; bytes: number; maxRuns: number; maxBytes: number };
  historyProblem?: string;
}

/** `GET /api/runs/:runId/log`: what the run emitted so far. */
export interface RunLog {
  summary: RunSummary;
  events: RunEvent[];
}
