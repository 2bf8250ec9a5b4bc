import type { ExecutionMeta, PromptMessage, RunEndEvent, WorkflowClass, WorkflowServingOptions } from '@mcpflow/core';
import type { AnswerBook } from '../answers/answer-book';
import type { ToolCall } from '../run-options';
import type { Stubs } from '../stubs/stub-registrations';

/** What an SDK line runs: the class, its arguments, the stubs and answers, and where to report. */
export interface LineRun {
  readonly target: WorkflowClass;
  /** Which face of the workflow the client uses, and the prompt's or the tool's name. */
  readonly face: 'prompt' | 'tool';
  readonly name: string;
  /** The `WorkflowServer`'s options (its `onRunEnd` runs after the kit's own). */
  readonly serverOptions: WorkflowServingOptions;
  readonly args: Readonly<Record<string, string>>;
  readonly stubs: Stubs;
  readonly answers: AnswerBook;
  readonly protocol: '2025-11-25' | '2026-07-28';
  /** Rerun a recorded run (`mcpflow/rerun`, dev mode) instead of calling the face: from the start, or from a step. */
  readonly rerun?: { readonly runId: string; readonly fromStep?: string; readonly arguments?: Readonly<Record<string, string>> };
  /** Run through the tool face as an MCP task (SDK 2.x, protocol 2026-07-28). */
  readonly task?: boolean;
  /** Every tool call, as it is made. */
  readonly calls: ToolCall[];
  /** The server's `onRunEnd` hook. */
  readonly onRunEnd: (event: RunEndEvent) => void;
  /** Refuses stub and answer keys that name nothing known: called once the class is served, so its own wiring errors come first. */
  readonly checkKeys: () => void;
}

/** The `prompts/get` result the line's client received. */
export interface LineResult {
  readonly messages: PromptMessage[];
  readonly meta: ExecutionMeta;
  /** The id the server recorded the run under (`_meta["mcpflow/run"].id`, dev mode). */
  readonly runId?: string;
}
