import type { ContentBlock, PromptResult, RunEndEvent } from '../../engine';
import type { WorkflowToolResult } from '../../model';
import { boundOutputs } from './tool-outputs';

/** What `tools/call` returns for a workflow served as a tool (the MCP `CallToolResult`). */
export interface WorkflowToolCallResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent: WorkflowToolResult;
  readonly isError?: true;
  readonly _meta?: Record<string, unknown>;
}

/**
 * A finished run as a tool result: `content` is the trace, one block a message (text, embedded
 * resources, images as they are; the handoff or failure message last), `structuredContent` is
 * `{ status, outputs }` (each completed step's value by binding, redacted as `onRunEnd` sees them,
 * held to `maxBytes`), `isError` only when the run failed, and `_meta` carries the same
 * `mcpflow/execution` summary as a prompt's result.
 *
 * @example
 * ```ts
 * workflowToolResult(promptResult, { workflow: 'get_hint', status: 'completed', outputs: { progress } }, limits.maxTraceBytes);
 * ```
 */
export function workflowToolResult(result: PromptResult, end: RunEndEvent, maxBytes: number): WorkflowToolCallResult {
  return {
    content: result.messages.map((message) => message.content),
    structuredContent: { status: end.status, outputs: boundOutputs(end.outputs, maxBytes) },
    ...(end.status === 'failed' ? { isError: true as const } : {}),
    ...(result._meta === undefined ? {} : { _meta: result._meta }),
  };
}
