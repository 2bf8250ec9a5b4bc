/** A `ReadResourceResult`, as a stub may return it whole. */
export interface StubResourceResult {
  contents: { uri: string; mimeType?: string; text?: string; blob?: string }[];
}

/**
 * What a resource stub returned, as the resource's contents: a `ReadResourceResult` as it is; a
 * string as the text; any other value as JSON (`application/json`, read back as the value).
 *
 * @example
 * ```ts
 * stubResourceResult('# Walkthrough', 'if://walkthrough/zork1'); // { contents: [{ uri: 'if://walkthrough/zork1', text: '# Walkthrough' }] }
 * ```
 */
export function stubResourceResult(value: unknown, uri: string): StubResourceResult {
  if (typeof value === 'object' && value !== null && Array.isArray((value as { contents?: unknown }).contents))
    return value as StubResourceResult;
  if (typeof value === 'string') return { contents: [{ uri, text: value }] };
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) ?? 'null' }] };
}
