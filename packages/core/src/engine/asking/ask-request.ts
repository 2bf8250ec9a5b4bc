/**
 * What the engine asks a client and what comes back, in MCP's wire shapes but without an SDK:
 * each adapter sends these as `elicitation/create` / `sampling/createMessage` requests (2025
 * sessions) or embeds them in an `input_required` result (2026-07-28).
 */

/** A flat form: MCP elicitation's restricted JSON Schema of primitive fields. */
export interface FormSchema {
  readonly type: 'object';
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  readonly required?: readonly string[];
}

/** The `_meta` key of a question sent in place: `{ key }`, the question's key (`<step>/<argument>`), as `inputRequests` names it on 2026-07-28. */
export const QUESTION_META_KEY = 'mcpflow/question';

/** `_meta` of a request sent in place: which question it is. */
export interface QuestionMeta {
  readonly [QUESTION_META_KEY]: { readonly key: string };
}

export interface ElicitRequest {
  readonly method: 'elicitation/create';
  readonly params: { readonly message: string; readonly requestedSchema: FormSchema; readonly _meta?: QuestionMeta };
}

export interface SamplingRequest {
  readonly method: 'sampling/createMessage';
  readonly params: {
    readonly messages: readonly { readonly role: 'user'; readonly content: { readonly type: 'text'; readonly text: string } }[];
    readonly maxTokens: number;
    readonly systemPrompt?: string;
    readonly _meta?: QuestionMeta;
  };
}

/**
 * One question to the client. Exported from `@mcpflow/core` for `@mcpflow/testing`, which answers
 * these; no public signature takes or returns one.
 *
 * @internal
 */
export type AskRequest = ElicitRequest | SamplingRequest;

/**
 * What a client answered: an elicitation result (`action`, `content`) or a sampling result
 * (`content`, `model`). Exported from `@mcpflow/core` for `@mcpflow/testing`, as `AskRequest` is.
 *
 * @internal
 */
export type AskResponse = { readonly action?: unknown; readonly content?: unknown; readonly [key: string]: unknown };

/**
 * The request as it goes out in place, on a 2025 session: marked with its question's key, so a
 * client can tell the questions of a run apart (on 2026-07-28 the `inputRequests` key does that).
 *
 * @example
 * ```ts
 * channel.send(withQuestionKey(question.request, 'added/project'), signal);
 * ```
 */
export function withQuestionKey(request: AskRequest, key: string): AskRequest {
  const _meta: QuestionMeta = { [QUESTION_META_KEY]: { key } };
  return request.method === 'elicitation/create'
    ? { method: request.method, params: { ...request.params, _meta } }
    : { method: request.method, params: { ...request.params, _meta } };
}

/** Which kind of question each request is, by the client capability it needs. */
export function capabilityOf(request: AskRequest): 'elicitation' | 'sampling' {
  return request.method === 'elicitation/create' ? 'elicitation' : 'sampling';
}
