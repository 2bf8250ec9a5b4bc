import type { AskRequest, InPlaceAskChannel, ProgressUpdate, RoundsAskChannel, SignalSource, UriTemplateParser } from '../engine';
import type { JsonToolSchema } from './tools/tool-schema/read-tool-schema';
import type { PropertySchema } from './tools/tool-schema/describe-input-schema';
import type { WorkflowSkillSource } from './faces/skill-source';
import type { PromptHandle } from './registry/handles';
import type { SchemaVerdict } from './schema-verdict';
import type { TasksSupport } from './tasks/tasks-support';

/**
 * What one SDK line gives the kit: the few things that differ between `@modelcontextprotocol/sdk`
 * 1.x and `@modelcontextprotocol/server` 2.x. Everything else a WorkflowServer does is the kit's,
 * written once. `Server` is the line's `McpServer`, `Context` its request handler context (1.x
 * `extra`, 2.x `ctx`).
 *
 * @example
 * ```ts
 * export class WorkflowServer extends servingWorkflows(McpServer, v2Line) { … }
 * ```
 */
export interface AdapterLine<Server, Context> {
  /** URI templates as the line parses them, so steps expand URIs as its `resources/read` matches them. */
  readonly parseUriTemplate: UriTemplateParser;
  /** Parses as the line's `tools/call` and `prompts/get` do: synchronously when the schema allows. */
  parseSchema(schema: object, value: unknown): SchemaVerdict | Promise<SchemaVerdict>;
  /** The declared properties of an object schema (a prompt's arguments); `{}` when it has none. */
  objectShape(schema: object): Record<string, unknown>;
  /** A tool's input schema as `tools/list` shows it, and its properties' own schemas where the library exposes them. */
  describeToolSchema(schema: object): { json: JsonToolSchema; properties?: Readonly<Record<string, PropertySchema>> };
  /** The line's `ResourceTemplate` for a definition's URI with `{variables}`. */
  resourceTemplate(uriTemplate: string): unknown;
  /** The line's protocol error with code `InvalidParams`. */
  invalidParams(message: string): Error;
  /** A handler result that asks the client for input (2.x `input_required`), which a step cannot answer. */
  asksForInput?(value: unknown): boolean;
  /** The request context's signal, progress and notifications. */
  readonly request: RequestAccess<Context>;
  /**
   * Asks the client during the request (a 2025 session), waiting at most `timeoutMs` for each
   * answer; each question's wait ends (its promise rejects) when the request is cancelled or the
   * connection closes.
   */
  askInPlace(server: Server, context: Context, timeoutMs: number): InPlaceAskChannel;
  /** Pausing by multi-round-trip requests (protocol 2026-07-28), where the line serves it. */
  readonly rounds?: RoundsSupport<Server, Context>;
  /** The `McpServer` methods that register tools, resources and prompts (every form the line has). */
  readonly registrations: { readonly tools: readonly string[]; readonly resources: readonly string[]; readonly prompts: readonly string[] };
  /** Whether a `setRequestHandler` call's first argument (a method name, or a request schema) registers `tools/call`. */
  registersCallTool(method: unknown): boolean;
  /** Serving skills (SEP-2640) through the line's own skills extension, where the line has one. */
  readonly skills?: SkillsSupport<Server>;
  /** Serving MCP tasks (SEP-2663) where the line can: its side of the wire (`tasks-wire.ts` is the kit's). */
  readonly tasks?: TasksSupport<Server, Context>;
  /** The mcpflow entry that serves the line, for messages: `@mcpflow/core/v1`. */
  readonly entry: string;
  /** Replaces the SDK's `prompts/get` handler with `get`, which checks `params` itself. */
  handleGetPrompt(server: Server, get: (name: unknown, args: unknown, context: Context) => Promise<unknown>): void;
  /** Answers a JSON-RPC request of mcpflow's own (`mcpflow/rerun`) with `handle`, which checks `params` itself; before `connect()`. */
  handleRequest(server: Server, method: string, handle: (params: unknown, context: Context) => Promise<unknown>): void;
  /** Calls a plain (not workflow) prompt's own callback, once its arguments are checked. */
  callPrompt(prompt: PromptHandle, args: Record<string, unknown> | undefined, raw: unknown, context: Context): unknown;
}

/** How a line serves the workflows' skills: one skills extension per server, attached before it connects. */
export interface SkillsSupport<Server> {
  /** Attaches a skills extension to `server` that serves what `source` holds when a client asks. */
  attach(server: Server, source: WorkflowSkillSource): void;
}

/** How the kit reads a line's request context. */
export interface RequestAccess<Context> {
  signal(context: Context): AbortSignal;
  /** The request's `params._meta` (where a client puts its `traceparent`), if it sent one. */
  meta(context: Context): Readonly<Record<string, unknown>> | undefined;
  /** The request's session id (Streamable HTTP); `undefined` on a connection without ids (stdio, in memory). */
  sessionId(context: Context): string | undefined;
  /**
   * Who sent the request, for per-client quotas (`clientKey`: the session, else the authenticated
   * principal, else the address `serveHttp` recorded); `undefined` when the line cannot tell.
   */
  client(context: Context): string | undefined;
  progressToken(context: Context): string | number | undefined;
  notifyProgress(context: Context, progressToken: string | number, update: ProgressUpdate): Promise<void>;
  /**
   * The same context with its signal read from `source` (a step's try) when a tool or resource
   * handler reads it, so a try's signal is made only then (`withSignalFrom`).
   */
  withSignal(context: Context, source: SignalSource): Context;
  /**
   * What a tool handler gets: the same context with `meta` as the request's `_meta` (1.x
   * `extra._meta`, 2.x `ctx.mcpReq._meta`) and, given a `source`, its signal read from it as
   * `withSignal` does — one copy of the context for both.
   */
  forHandler(context: Context, meta: Readonly<Record<string, unknown>>, source: SignalSource | undefined): Context;
}

/** How a line pauses a run and resumes it (protocol 2026-07-28: `input_required` and `requestState`). */
export interface RoundsSupport<Server, Context> {
  /** Whether this server instance serves rounds (the protocol era is per instance). */
  servesRounds(server: Server): boolean;
  /** The `requestState` a retry carries, if any. */
  requestState(context: Context): string | undefined;
  /** The channel that collects questions and reads the retry's answers. */
  channel(server: Server, context: Context): RoundsAskChannel;
  /** The line's `input_required` result for the questions and the sealed state. */
  inputRequired(requests: Readonly<Record<string, AskRequest>>, requestState: string): unknown;
}
