/** A `CallToolResult`, as a stub may return it whole. */
export interface StubToolResult {
  content: unknown[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * What a tool stub returned, as the tool's result: a `CallToolResult` as it is; an object as
 * `structuredContent` (with its JSON as text, as a well-behaved tool returns both); a string as
 * text; any other value as its JSON text.
 *
 * @example
 * ```ts
 * stubToolResult({ room: 'Attic' }); // { content: [{ type: 'text', text: '{"room":"Attic"}' }], structuredContent: { room: 'Attic' } }
 * ```
 */
export function stubToolResult(value: unknown): StubToolResult {
  if (isObject(value) && Array.isArray(value.content)) return value as unknown as StubToolResult;
  if (isObject(value)) return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return { content: [{ type: 'text', text }] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
