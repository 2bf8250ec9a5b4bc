import type { ExecutionMeta, ExecutionStatus, PromptMessage, WorkflowServingOptions } from '@mcpflow/core';
import type { Decline } from './answers/decline';

/**
 * A stub tool: called with the arguments the step passes (whatever they are: a stub has no schema
 * of its own; a stub standing in for a `defineTool` definition is checked against that
 * definition's schemas, as the real tool is). It returns a `CallToolResult` (`{ content, … }`), or
 * a value: an object becomes the result's `structuredContent`, a string its text, anything else its
 * JSON text. It may be async; a throw fails the step as a tool's throw does.
 *
 * @example
 * ```ts
 * const tools = { get_weather: ({ city }) => ({ city, temperature: 21 }) };
 * ```
 */
// `any`: a stub takes whatever the step passes, so a test can destructure it without declaring a type.
export type ToolStub = (args: any) => unknown;

/**
 * A stub resource: called with the URI template's variables (decoded) and the URI read. It returns
 * a `ReadResourceResult` (`{ contents: […] }`), or a value: a string becomes the resource's text,
 * anything else its JSON (`application/json`, which the step reads back as the value).
 *
 * @example
 * ```ts
 * const resources = { 'if://walkthrough/{game_id}': ({ game_id }) => `Walkthrough of ${game_id}` };
 * ```
 */
export type ResourceStub = (variables: Record<string, string | string[]>, uri: string) => unknown;

/** A question the workflow put, as an answer function sees it. */
export interface AskedQuestion {
  /** `<step>/<argument>` (or `<step>/{<variable>}` for a URI variable): the key of `answers`. */
  readonly key: string;
  /** `askUser` (elicitation) or `askModel` (sampling). */
  readonly kind: 'askUser' | 'askModel';
  /** The question's text, its placeholders filled. */
  readonly text: string;
  /** The choices offered, by their labels, when the question has choices. */
  readonly choices?: readonly string[];
  /** 1 the first time the question is put, 2 when it is put again after a refused answer, … */
  readonly attempt: number;
}

/**
 * The answer to one question: the value itself (`'MCP Tester'`, `{ name: 'Ada', age: 36 }`; not an
 * elicitation result), `decline()` (the user says no: the client declines), or a function of the
 * question that returns one of these (or a promise of it). `undefined` leaves the question
 * unanswered: a user's question is then declined, and a question to the model cannot be answered.
 * (The function is a member of its own, so a test's `(question) => …` gets its parameter's type
 * without naming it.)
 *
 * @example
 * ```ts
 * const answers = { 'added/page': 'MCP Tester', 'added/owner': (question) => (question.attempt === 1 ? 'ada' : decline()) };
 * ```
 */
export type Answer = string | number | boolean | object | null | undefined | Decline | ((question: AskedQuestion) => unknown);

/**
 * What `runWorkflow` runs: the workflow's arguments, stubs, answers, the face the client uses, the
 * server's options, and the SDK line and protocol of the client. Strict: a key of `tools` or
 * `resources` that names nothing known (no tool or resource of the workflow, of a workflow it calls,
 * of another workflow in the process, or of a definition), or an `answers` key that no question of
 * the workflow has, is an `UnknownRunKeyError` before anything runs.
 */
export interface RunWorkflowOptions {
  /** The workflow's arguments, as a client sends them (strings). */
  arguments: Record<string, string>;
  /**
   * Stub tools by tool name: each a tool a step calls (of the workflow or of a workflow it calls),
   * or, for a map shared by several workflows, a tool another workflow uses or a `defineTool`
   * definition declares. A tool without a stub must be one the workflow registers itself (a
   * `defineTool` definition): its real handler runs.
   */
  tools?: Record<string, ToolStub>;
  /** Stub resources by URI template (or fixed URI), as the step (or the workflow's `resources`) names it. */
  resources?: Record<string, ResourceStub>;
  /**
   * Answers by question key, `<step>/<argument>` (the step's `name`, else its property name): each
   * must be the key of a question the workflow puts. `decline()` declines.
   */
  answers?: Record<string, Answer>;
  /**
   * How the client runs the workflow: `'prompt'` (default: `prompts/get`, the trace as messages) or
   * `'tool'` (`tools/call` of the workflow served as a tool — `expose: { tool: true }` — whose
   * result's content blocks become `messages`).
   */
  face?: 'prompt' | 'tool';
  /**
   * The `WorkflowServer`'s options (second argument): limits, hooks, `pause`, `logger`, … Its
   * `onRunEnd` is called too, after the one that fills `outputs`.
   */
  serverOptions?: WorkflowServingOptions;
  /** The MCP SDK line of the server and the client: 2 (default) or 1. */
  sdk?: 1 | 2;
  /**
   * The protocol the client speaks: on SDK 2.x `'2026-07-28'` (default: stateless, a question pauses
   * the run and the answers come with a retry) or `'2025-11-25'` (a session, questions asked in
   * place); SDK 1.x speaks `'2025-11-25'` only.
   */
  protocol?: '2025-11-25' | '2026-07-28';
  /**
   * Run the workflow as an MCP task (DESIGN §2.13): `tools/call` of its tool face (the class needs
   * `expose: { tool: { task } }`), then `tasks/get` until it ends, questions answered through
   * `tasks/update` (a first step's questions come by MRTR before the task, answered with the
   * retry). SDK 2.x and protocol 2026-07-28 only; not with `face: 'prompt'`. The client declares
   * sampling only when `answers` has an entry for each question to the model, so an unanswered one
   * hands off, as the tool face does without a model. `messages` are then the tool result's
   * content blocks (the trace), each as a `user` message.
   */
  task?: boolean;
}

/** One tool call a run made: the tool and the arguments its handler received. */
export interface ToolCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
}

/** What a run returned, as the client saw it, and what it did. */
export interface WorkflowRun {
  /** How the run ended: `completed`, `handoff`, `failed` or `cancelled`. */
  readonly status: ExecutionStatus;
  /** The trace: the `prompts/get` result's messages (with `face: 'tool'`, the tool result's content blocks, each as a user message). */
  readonly messages: PromptMessage[];
  /** `_meta["mcpflow/execution"]`: each step's status, where and why the run stopped, the questions put. */
  readonly meta: ExecutionMeta;
  /** Each completed step's value, by its `@Bind` name (redacted like the trace). */
  readonly outputs: Record<string, unknown>;
  /** Every tool call, in the order the calls were made. */
  readonly calls: ToolCall[];
}
