import type { TaskSupport } from '../../model';
import type { ToolHandle } from '../registry/handles';
import type { PrincipalAuthInfo } from '../run/request-principal';

/** The extension's id, under which servers advertise it and clients declare it (`capabilities.extensions`). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** What a task method handler receives: the request's params (checked by the kit) and its context. */
export type TaskMethodHandler<Context> = (params: Readonly<Record<string, unknown>>, context: Context) => Promise<unknown>;

/** The three methods of the extension a server answers. */
export interface TaskMethods<Context> {
  readonly 'tasks/get': TaskMethodHandler<Context>;
  readonly 'tasks/update': TaskMethodHandler<Context>;
  readonly 'tasks/cancel': TaskMethodHandler<Context>;
}

/**
 * How a line serves MCP tasks (SEP-2663; SDK 2.x): the little that touches the SDK. The wire
 * itself — which results, which errors — is the kit's (`tasks-wire.ts`).
 */
export interface TasksSupport<Server, Context> {
  /** Serves `methods` on `server` and advertises the extension under `capabilities.extensions`; before `connect()`. */
  attach(server: Server, methods: TaskMethods<Context>): void;
  /** The extensions the client declared for this request: in its `_meta` (2026-07-28), else for its session. */
  clientExtensions(server: Server, context: Context): Readonly<Record<string, unknown>> | undefined;
  /** The client capabilities that count for this request (elicitation, sampling), as `clientExtensions` reads them. */
  clientCapabilities(server: Server, context: Context): Readonly<Record<string, unknown>> | undefined;
  /** The line's protocol error with this JSON-RPC code. */
  error(code: number, message: string, data?: unknown): Error;
  /** The JSON-RPC code of an error a handler threw, when it is a protocol error of the line. */
  errorCode(error: unknown): number | undefined;
  /** What the request's transport authenticated (`authInfo`), if it did: the kit derives the principal from it. */
  authInfo(context: Context): PrincipalAuthInfo | undefined;
  /** The answers an MRTR retry brings (`inputResponses`). */
  inputResponses(context: Context): Readonly<Record<string, unknown>> | undefined;
  /** The context a round runs a plain tool's handler with: `base` (or a detached one) with this signal, these answers and this state. */
  roundContext(
    base: Context | undefined,
    signal: AbortSignal,
    input?: { readonly responses: Readonly<Record<string, unknown>>; readonly requestState?: string },
  ): Context;
  /** Shows the tool's task support in `tools/list` (`execution.taskSupport`, which 2025 sessions see; 2026-07-28 dropped the field). */
  markTool(handle: ToolHandle, support: TaskSupport): void;
}
