import {
  EXECUTION_META_KEY,
  boundTrace,
  jsonBytesBound,
  type ContentBlock,
  type ExecutionMeta,
  type PromptMessage,
  type PromptResult,
  type RunEndEvent,
} from '../../engine';
import type { WorkflowToolResult } from '../../model';
import { boundOutputs } from './tool-outputs';

/** What `tools/call` returns for a workflow served as a tool (the MCP `CallToolResult`). */
export interface WorkflowToolCallResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent: WorkflowToolResult;
  readonly isError?: true;
  readonly _meta?: Record<string, unknown>;
}

/** Room for what bounding adds: `structuredContent.truncated` (less the names it lists) and `_meta`'s `truncated`. */
const MARKERS_BYTES = 256;

/**
 * A finished run as a tool result: `content` is the trace, one block a message (text, embedded
 * resources, images as they are; the handoff or failure message last), `structuredContent` is
 * `{ status, outputs }` (each completed step's value by binding, redacted as `onRunEnd` sees them),
 * `isError` only when the run failed, and `_meta` carries the same `mcpflow/execution` summary as a
 * prompt's result.
 *
 * The whole result — content, `structuredContent` and `_meta` — stays within `maxBytes` of JSON
 * (`maxTraceBytes`; issue 31.8: a tool output shows in both, and bounded apart they made twice the
 * bound). The outputs get at least half the room, or all that the content leaves; a value that
 * does not fit is replaced by a note and named in `structuredContent.truncated.outputs`. The
 * content then gets what the outputs leave: its largest messages are cut further, each ending with
 * a note, and `_meta["mcpflow/execution"].truncated` counts them. `opening` is how many messages
 * open the trace (instructions, intent, plan), kept while later ones can go.
 *
 * @example
 * ```ts
 * workflowToolResult(promptResult, { workflow: 'get_hint', status: 'completed', outputs: { progress } }, limits.maxTraceBytes, 2);
 * ```
 */
export function workflowToolResult(result: PromptResult, end: RunEndEvent, maxBytes: number, opening = 2): WorkflowToolCallResult {
  const failed = end.status === 'failed';
  let messagesBytes = jsonBytesBound(result.messages);
  let room = Infinity;
  if (Number.isFinite(maxBytes)) {
    const frame = { content: [], structuredContent: { status: end.status, outputs: {} }, isError: failed, _meta: result._meta };
    room = maxBytes - bytesOf(frame) - bytesOf(Object.keys(end.outputs)) - MARKERS_BYTES;
    if (messagesBytes > room / 2) messagesBytes = bytesOf(result.messages);
  }
  const bounded = boundOutputs(end.outputs, Math.floor(Math.max(room / 2, room - messagesBytes)), maxBytes);
  let { messages } = result;
  let meta = result._meta;
  if (messagesBytes > room / 2) {
    const outputsBytes = bytesOf(bounded.outputs);
    if (messagesBytes + outputsBytes > room) {
      const cut = boundTrace(result.messages, maxBytes, maxBytes - (room - outputsBytes), opening);
      messages = cut.messages;
      if (cut.truncation) meta = withTruncation(meta, cut.truncation.messagesCut, cut.truncation.messagesDropped, maxBytes);
    }
  }
  const structuredContent: WorkflowToolResult =
    bounded.truncated.length === 0
      ? { status: end.status, outputs: bounded.outputs }
      : { status: end.status, outputs: bounded.outputs, truncated: { limitBytes: maxBytes, outputs: bounded.truncated } };
  return {
    content: messages.map((message: PromptMessage) => message.content),
    structuredContent,
    ...(failed ? { isError: true as const } : {}),
    ...(meta === undefined ? {} : { _meta: meta }),
  };
}

/** `_meta` with `mcpflow/execution`'s `truncated` counting what the tool face cut besides what the trace's bound did. */
function withTruncation(
  meta: Record<string, unknown> | undefined,
  messagesCut: number,
  messagesDropped: number,
  limitBytes: number,
): Record<string, unknown> | undefined {
  const execution = meta?.[EXECUTION_META_KEY] as ExecutionMeta | undefined;
  if (!execution) return meta;
  const before = execution.truncated;
  const truncated = {
    limitBytes,
    messagesCut: (before?.messagesCut ?? 0) + messagesCut,
    messagesDropped: (before?.messagesDropped ?? 0) + messagesDropped,
  };
  return { ...meta, [EXECUTION_META_KEY]: { ...execution, truncated } };
}

function bytesOf(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}
