import {
  CLIENT_CAPABILITIES_META_KEY,
  ProtocolError,
  type ClientCapabilities,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  TASKS_EXTENSION,
  declaredCapabilities,
  keepUnliftedInput,
  liftedInput,
  withSignalFrom,
  type RawRequestReceiver,
  type TasksSupport,
} from '../adapter-kit';

/** Task method params as the kit checks them itself (a missing `taskId` gets mcpflow's message, not the SDK's). */
const TaskParams = z.looseObject({});

/**
 * MCP tasks on SDK 2.x (SEP-2663): the kit's methods registered through the SDK's own custom-method
 * path, the extension advertised under `capabilities.extensions`, what a request declares read from
 * its `_meta` envelope (2026-07-28) or its session, and the SDK's `ProtocolError`.
 */
export const tasks: TasksSupport<McpServer, ServerContext> = {
  attach(server, methods) {
    const unlifted = keepUnliftedInput(server.server as unknown as RawRequestReceiver);
    for (const [method, handler] of Object.entries(methods)) {
      server.server.setRequestHandler(method as never, { params: TaskParams }, ((params: Record<string, unknown>, ctx: ServerContext) =>
        handler(unlifted(params, ctx.mcpReq.id), ctx)) as never);
    }
    server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION]: {} } });
  },
  clientExtensions(server, ctx) {
    return (declared(server, ctx)?.extensions ?? undefined) as Readonly<Record<string, unknown>> | undefined;
  },
  clientCapabilities: (server, ctx) => declared(server, ctx) as Readonly<Record<string, unknown>> | undefined,
  error: (code, message, data) => new ProtocolError(code, message, data),
  errorCode: (error) => (error instanceof ProtocolError ? error.code : undefined),
  authInfo: (ctx) => ctx.http?.authInfo,
  inputResponses(ctx) {
    const { inputResponses, droppedInputResponseKeys } = ctx.mcpReq as { inputResponses?: object; droppedInputResponseKeys?: string[] };
    return liftedInput(inputResponses, droppedInputResponseKeys);
  },
  roundContext(base, signal, input) {
    const mcpReq = base ? withSignalFrom(base.mcpReq, { signal }) : detachedRequest(signal);
    const withInput = input
      ? Object.assign(Object.create(null) as object, mcpReq, {
          inputResponses: input.responses,
          requestState: () => input.requestState,
        })
      : mcpReq;
    return { ...(base ?? {}), mcpReq: withInput } as ServerContext;
  },
  markTool(handle, support) {
    (handle as unknown as { execution?: { taskSupport: string } }).execution = { taskSupport: support };
  },
};

/** The capabilities this request declares: in its `_meta` envelope (2026-07-28), else its session's (2025). */
function declared(server: McpServer, ctx: ServerContext): ClientCapabilities | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const fromRequest = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? meta?.[CLIENT_CAPABILITIES_META_KEY]) as ClientCapabilities | undefined;
  return declaredCapabilities(fromRequest, server.server.getClientCapabilities());
}

/** The request side of a context for a round no request of this process started (a task resumed elsewhere). */
function detachedRequest(signal: AbortSignal): ServerContext['mcpReq'] {
  const unavailable = () => Promise.reject(new Error('a task round has no client request to send on'));
  return {
    id: 0,
    method: 'tools/call',
    _meta: {},
    signal,
    requestState: () => undefined,
    notify: async () => undefined,
    send: unavailable,
    log: async () => undefined,
    elicitInput: unavailable,
    requestSampling: unavailable,
  } as unknown as ServerContext['mcpReq'];
}
