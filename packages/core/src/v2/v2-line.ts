import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  UriTemplate,
  isInputRequiredResult,
  type McpServer,
  type RegisteredPrompt,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { clientKey, remoteAddressOf, signalFromSource, withSignalFrom, type AdapterLine, type PropertySchema } from '../adapter-kit';
import { askInPlace, rounds } from './asking';
import { skills } from './skills';
import { tasks } from './tasks';
import { inputJsonSchema, validateStandard } from './standard-schema';

/**
 * `prompts/get` params as WorkflowServer parses them: anything goes, so that a malformed `name` or
 * `arguments` reaches the handler and gets an `InvalidParams` error that names it, instead of the
 * SDK's generic wire-schema failure.
 */
const LenientGetPromptParams = z.looseObject({});

/** SDK 2.x (`@modelcontextprotocol/server`) as the adapter kit sees it: Standard Schemas, `ProtocolError`, `ctx`, rounds. */
export const v2Line: AdapterLine<McpServer, ServerContext> = {
  parseUriTemplate: (template) => new UriTemplate(template),
  parseSchema: validateStandard,
  objectShape(schema) {
    const shape = (schema as { shape?: unknown }).shape;
    return typeof shape === 'object' && shape !== null ? (shape as Record<string, unknown>) : {};
  },
  describeToolSchema: (schema) => ({
    json: inputJsonSchema(schema),
    properties: (schema as { shape?: Record<string, PropertySchema> }).shape,
  }),
  resourceTemplate: (uriTemplate) => new ResourceTemplate(uriTemplate, { list: undefined }),
  invalidParams: (message) => new ProtocolError(ProtocolErrorCode.InvalidParams, message),
  asksForInput: isInputRequiredResult,
  request: {
    signal: (ctx) => ctx.mcpReq.signal,
    meta: (ctx) => ctx.mcpReq._meta,
    sessionId: (ctx) => ctx.sessionId,
    client: (ctx) => clientKey({ sessionId: ctx.sessionId, authInfo: ctx.http?.authInfo, address: remoteAddressOf(ctx.http?.req) }),
    progressToken: (ctx) => ctx.mcpReq._meta?.progressToken,
    notifyProgress: (ctx, progressToken, update) =>
      ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...update } }),
    withSignal: (ctx, source) => ({ ...ctx, mcpReq: withSignalFrom(ctx.mcpReq, source) }),
    forHandler: (ctx, _meta, source) => {
      const mcpReq = { ...ctx.mcpReq, _meta };
      return { ...ctx, mcpReq: source ? signalFromSource(mcpReq, source) : mcpReq };
    },
  },
  askInPlace: (server, ctx, timeoutMs) => askInPlace(server.server, ctx, timeoutMs),
  rounds,
  registrations: { tools: ['registerTool'], resources: ['registerResource'], prompts: ['registerPrompt'] },
  registersCallTool: (method) => method === 'tools/call',
  skills,
  tasks,
  entry: '@mcpflow/core/v2',
  handleGetPrompt(server, get) {
    server.server.removeRequestHandler('prompts/get');
    server.server.setRequestHandler(
      'prompts/get',
      { params: LenientGetPromptParams },
      (params, ctx) => get(params.name, params.arguments, ctx as ServerContext) as never,
    );
  },
  // Lenient as prompts/get: the handler checks params itself, with messages in mcpflow's words.
  handleRequest(server, method, handle) {
    server.server.setRequestHandler(method as never, { params: LenientGetPromptParams }, ((params: unknown, ctx: ServerContext) =>
      handle(params, ctx)) as never);
  },
  // A plain prompt: its arguments are valid, so the SDK's own handler (which parses them again) calls it.
  callPrompt: (prompt, _args, raw, ctx) => (prompt as unknown as RegisteredPrompt).handler(raw as Record<string, unknown> | undefined, ctx),
};
