/**
 * The MCP shapes the engine reads and writes, declared here so the engine needs no SDK. They are the
 * protocol's own shapes (the same JSON on both SDK lines); an adapter passes its SDK's values in and
 * hands the engine's results back unchanged.
 */

/** A text block of a tool result or a prompt message. */
export interface TextContent {
  readonly type: 'text';
  readonly text: string;
  readonly [key: string]: unknown;
}

/** One content of a resource read: text, or base64 `blob`. */
export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
  readonly [key: string]: unknown;
}

/** A resource embedded in a message. */
export interface EmbeddedResource {
  readonly type: 'resource';
  readonly resource: ResourceContents;
  readonly [key: string]: unknown;
}

/** Content the engine passes through untouched: images, audio, resource links. */
export interface OtherContent {
  readonly type: 'image' | 'audio' | 'resource_link';
  readonly [key: string]: unknown;
}

/** A block of a tool result or a prompt message. */
export type ContentBlock = TextContent | EmbeddedResource | OtherContent;

/** What a tool returns (`tools/call`'s result). */
export interface ToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** What a resource read returns (`resources/read`'s result). */
export interface ResourceResult {
  readonly contents: readonly ResourceContents[];
}

/** One message of a prompt: prompts have only `user` and `assistant` roles. */
export interface PromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: ContentBlock;
}

/** A workflow's `prompts/get` result. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
}
