import { z } from 'zod';
import type { ExecutionMeta, PromptMessage } from '@mcpflow/core';
import type { LineResult, LineRun } from './line-run';

/** What a run needs of either line's `Client` to run a workflow through one of its faces. */
export interface FaceClient {
  getPrompt(params: never, options?: never): Promise<unknown>;
  callTool(params: never, ...rest: never[]): Promise<unknown>;
  request(request: never, resultSchema: never, options?: never): Promise<unknown>;
}

/** `mcpflow/rerun`'s result as the client parses it: the face's own result, read as `faceResult` reads it. */
const RERUN_RESULT = z.looseObject({});

/** A `prompts/get` or a `tools/call` result, as far as a run reads it. */
interface FaceResult {
  readonly messages?: unknown[];
  readonly content?: unknown[];
  readonly _meta?: Record<string, unknown>;
}

/**
 * Sends the run's request for its face: `prompts/get` of the workflow's prompt, or `tools/call` of
 * its tool, with `extra` params (a retry's `inputResponses` and `requestState`) and `options`; for
 * a rerun, `mcpflow/rerun` of the recorded run (a rerun asks in place only: it never pauses).
 *
 * @example
 * ```ts
 * const result = await requestFace(client, run, {}, { allowInputRequired: true });
 * ```
 */
export function requestFace(client: FaceClient, run: LineRun, extra: Record<string, unknown>, options?: object): Promise<unknown> {
  if (run.rerun) {
    const request = { method: 'mcpflow/rerun', params: { ...run.rerun } };
    return (client.request as (request: object, schema: object, options?: object) => Promise<unknown>)(request, RERUN_RESULT, options);
  }
  const args = { ...run.args };
  return run.face === 'tool'
    ? (client.callTool as (params: object, options?: object) => Promise<unknown>)({ name: run.name, arguments: args, ...extra }, options)
    : (client.getPrompt as (params: object, options?: object) => Promise<unknown>)({ name: run.name, arguments: args, ...extra }, options);
}

/**
 * What the client saw: a prompt's messages, or a tool result's content blocks each as a message of
 * the user's side (where a tool result reaches the model), and `_meta[metaKey]`.
 *
 * @example
 * ```ts
 * faceResult(await requestFace(client, run, {}), EXECUTION_META_KEY);
 * ```
 */
export function faceResult(result: unknown, metaKey: string): LineResult {
  const { messages, content, _meta } = result as FaceResult;
  const runId = (_meta?.['mcpflow/run'] as { id?: unknown } | undefined)?.id;
  return {
    messages: (messages ?? (content ?? []).map((block) => ({ role: 'user', content: block }))) as PromptMessage[],
    meta: _meta?.[metaKey] as ExecutionMeta,
    ...(typeof runId === 'string' && { runId }),
  };
}
