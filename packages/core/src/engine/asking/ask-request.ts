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

export interface ElicitRequest {
  readonly method: 'elicitation/create';
  readonly params: { readonly message: string; readonly requestedSchema: FormSchema };
}

export interface SamplingRequest {
  readonly method: 'sampling/createMessage';
  readonly params: {
    readonly messages: readonly { readonly role: 'user'; readonly content: { readonly type: 'text'; readonly text: string } }[];
    readonly maxTokens: number;
    readonly systemPrompt?: string;
  };
}

/** One question to the client. */
export type AskRequest = ElicitRequest | SamplingRequest;

/** What a client answered: an elicitation result (`action`, `content`) or a sampling result (`content`, `model`). */
export type AskResponse = { readonly action?: unknown; readonly content?: unknown; readonly [key: string]: unknown };

/** Which kind of question each request is, by the client capability it needs. */
export function capabilityOf(request: AskRequest): 'elicitation' | 'sampling' {
  return request.method === 'elicitation/create' ? 'elicitation' : 'sampling';
}
