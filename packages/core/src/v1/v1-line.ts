import { ResourceTemplate, type McpServer, type RegisteredPrompt } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  getObjectShape,
  getParseErrorMessage,
  normalizeObjectSchema,
  safeParse,
  safeParseAsync,
  type AnySchema,
} from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  clientKey,
  signalFromSource,
  withSignalFrom,
  type AdapterLine,
  type JsonToolSchema,
  type PropertySchema,
  type SchemaIssue,
  type SchemaVerdict,
} from '../adapter-kit';
import { askInPlace } from './ask-in-place';
import type { RequestExtra } from './request-extra';

/**
 * `prompts/get` as WorkflowServer parses it: only the method is checked by the schema, so that a
 * malformed `name` or `arguments` reaches the handler and gets an `InvalidParams` error that names
 * it, instead of the SDK's `-32603` with a raw zod dump (typescript-sdk #2284).
 */
const LenientGetPromptRequestSchema = z.object({ method: z.literal('prompts/get'), params: z.unknown() });

const objectSchemas = new WeakMap<object, AnySchema>();

/** The schema `tools/call` parses with, normalized once per schema object (`update()` replaces the object). */
function objectSchema(schema: AnySchema): AnySchema {
  let object = objectSchemas.get(schema);
  if (!object) {
    object = normalizeObjectSchema(schema) ?? schema;
    objectSchemas.set(schema, object);
  }
  return object;
}

type ZodResult = ReturnType<typeof safeParse>;

function verdict(result: ZodResult): SchemaVerdict {
  if (result.success) return result;
  const issues = (result.error as { issues?: SchemaIssue[] }).issues ?? [];
  return { success: false, issues, message: getParseErrorMessage(result.error) };
}

/** SDK 1.x (`@modelcontextprotocol/sdk`) as the adapter kit sees it: zod schemas, `McpError`, the request's `extra`. */
export const v1Line: AdapterLine<McpServer, RequestExtra> = {
  parseUriTemplate: (template) => new UriTemplate(template),
  parseSchema(schema, value) {
    const object = objectSchema(schema as AnySchema);
    // zod throws on an async refinement or transform: then, and only then, parse asynchronously.
    try {
      return verdict(safeParse(object, value));
    } catch {
      return safeParseAsync(object, value).then(verdict);
    }
  },
  objectShape: (schema) => getObjectShape(schema as AnySchema) ?? {},
  describeToolSchema(schema) {
    const object = normalizeObjectSchema(schema as AnySchema);
    const json = object ? (toJsonSchemaCompat(object, { strictUnions: true, pipeStrategy: 'input' }) as JsonToolSchema) : {};
    return { json, properties: (object as { shape?: Record<string, PropertySchema> } | undefined)?.shape };
  },
  resourceTemplate: (uriTemplate) => new ResourceTemplate(uriTemplate, { list: undefined }),
  invalidParams: (message) => new McpError(ErrorCode.InvalidParams, message),
  request: {
    signal: (extra) => extra.signal,
    meta: (extra) => extra._meta,
    sessionId: (extra) => extra.sessionId,
    // 1.x hands a handler no socket: the session, else the authenticated client.
    client: (extra) => clientKey({ sessionId: extra.sessionId, authInfo: extra.authInfo, address: undefined }),
    progressToken: (extra) => extra._meta?.progressToken,
    notifyProgress: (extra, progressToken, update) =>
      extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } }),
    withSignal: withSignalFrom,
    forHandler: (extra, meta, source) => (source ? signalFromSource({ ...extra, _meta: meta }, source) : { ...extra, _meta: meta }),
  },
  askInPlace: (server, extra, timeoutMs) => askInPlace(server.server, extra, timeoutMs),
  registrations: { tools: ['registerTool', 'tool'], resources: ['registerResource', 'resource'], prompts: ['registerPrompt', 'prompt'] },
  // 1.x registers a handler by its request schema, whose `method` is a literal.
  registersCallTool: (schema) =>
    (schema as { shape?: { method?: { value?: unknown } } } | undefined)?.shape?.method?.value === 'tools/call',
  entry: '@mcpflow/core/v1',
  handleGetPrompt(server, get) {
    server.server.removeRequestHandler('prompts/get');
    server.server.setRequestHandler(
      LenientGetPromptRequestSchema as never,
      ((request: { params?: unknown }, extra: RequestExtra) => {
        const params = (typeof request.params === 'object' && request.params !== null ? request.params : {}) as Record<string, unknown>;
        return get(params.name, params.arguments, extra);
      }) as never,
    );
  },
  handleRequest(server, method, handle) {
    server.server.setRequestHandler(
      z.object({ method: z.literal(method), params: z.unknown() }) as never,
      ((request: { params?: unknown }, extra: RequestExtra) => handle(request.params, extra)) as never,
    );
  },
  callPrompt(prompt, args, _raw, extra) {
    // The SDK calls a prompt without arguments as callback(extra).
    const callback = (prompt as RegisteredPrompt).callback as (...params: unknown[]) => unknown;
    return prompt.argsSchema ? callback(args ?? {}, extra) : callback(extra);
  },
};
