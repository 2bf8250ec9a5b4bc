import { CLIENT_CAPABILITIES_META_KEY, type Client, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { TASKS_EXTENSION } from './task-types';

/** A result as the server sent it (an object), checked no further: the task methods are not spec methods the SDK knows. */
const ANY_RESULT: StandardSchemaV1<unknown, Record<string, unknown>> = {
  '~standard': {
    version: 1,
    vendor: '@mcpflow/client',
    validate: (value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? { value: value as Record<string, unknown> }
        : { issues: [{ message: 'the result is not an object' }] },
  },
};

/** What one request declares and how it is sent. */
export interface TaskRequestOptions {
  /** Declare the tasks extension for this request (in its `_meta`). */
  readonly tasks: boolean;
  /** Declare elicitation (form) too, when the client did not: the caller answers questions itself. */
  readonly elicitation?: boolean;
  /** More `_meta` entries. */
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
  /** Hand an `input_required` answer back instead of letting the SDK fulfil it. */
  readonly allowInputRequired?: boolean;
}

/**
 * Sends one request through the client's own request path, so the SDK adds the protocol's
 * per-request envelope (`_meta`: protocol version, client info) and the routing headers
 * (`Mcp-Method`, `Mcp-Name` from `name` or `taskId`); only the capabilities of this request are
 * ours: the client's own, plus the tasks extension (SEP-2663 lets a client declare it per request).
 */
export function taskRequest(
  client: Client,
  method: string,
  params: Readonly<Record<string, unknown>>,
  options: TaskRequestOptions,
): Promise<Record<string, unknown>> {
  const own = ownCapabilities(client);
  const capabilities = {
    ...own,
    ...(options.elicitation && !own.elicitation ? { elicitation: { form: {} } } : {}),
    ...(options.tasks ? { extensions: { ...(own.extensions as object | undefined), [TASKS_EXTENSION]: {} } } : {}),
  };
  const _meta = { ...options.meta, [CLIENT_CAPABILITIES_META_KEY]: capabilities };
  return client.request({ method, params: { ...params, _meta } } as never, ANY_RESULT, {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.allowInputRequired ? { allowInputRequired: true } : {}),
  });
}

/**
 * The capabilities the client declared, as the SDK puts them in each request's envelope
 * (protocol 2026-07-28); on a 2025 connection (no envelope) none: there the session's count.
 */
function ownCapabilities(client: Client): Record<string, unknown> {
  const envelope = (
    client as unknown as { _outboundMetaEnvelope?: () => Readonly<Record<string, unknown>> | undefined }
  )._outboundMetaEnvelope?.();
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  return typeof capabilities === 'object' && capabilities !== null ? (capabilities as Record<string, unknown>) : {};
}
