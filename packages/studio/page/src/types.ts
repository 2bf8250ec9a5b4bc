// The shapes of packages/studio/API.md the page reads.

export interface ServerState {
  connection: { state: 'connecting' | 'connected' | 'failed' | 'reconnecting'; error?: string; stderr?: string; target: string };
  server?: { name: string; version: string; protocolVersion: string };
}

export interface StepInfo {
  name: string;
  kind: string;
  group?: string;
  forEach?: boolean;
  when?: boolean;
}

export interface Workflow {
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
  faces: { prompt: boolean; tool: boolean; task: boolean };
  steps: StepInfo[];
  mermaid: string;
}

export interface WorkflowList {
  workflows: Workflow[];
  problems: { name: string; error: string }[];
}

export type Face = 'prompt' | 'tool' | 'task';

export interface ContentBlock {
  type: string;
  text?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

export interface TimelineRow {
  step: string;
  status: string;
  durationMs?: number;
  group?: string;
  iteration?: number;
}

export interface Run {
  runId: string;
  workflow: string;
  face: Face;
  status: 'running' | 'completed' | 'failed' | 'handoff' | 'cancelled';
  reason?: string;
  messages: { role: 'user' | 'assistant'; content: ContentBlock }[];
  timeline: TimelineRow[];
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
