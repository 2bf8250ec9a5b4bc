import type { ResourceResult, ToolResult } from '../content';
import { MalformedResultError } from '../results/malformed-result-error';
import { TOO_DEEP, jsonMayNestTooDeeply, nestedTooDeeply } from '../results/value-depth';

/** What `parseJson` returns for a text that is not JSON. */
const NOT_JSON: unique symbol = Symbol('not JSON');

/** The text of a tool result's text blocks, joined by newlines. */
export function toolResultText(result: ToolResult): string {
  let text = '';
  for (const block of result.content) {
    if (block.type === 'text') text = text ? `${text}\n${block.text}` : block.text;
  }
  return text;
}

/**
 * A tool result's value: `structuredContent` when present, else its text parsed as JSON when it
 * parses, else the text. Throws `MalformedResultError` for JSON text nested too deeply to be a value.
 */
export function toolResultValue(result: ToolResult, text: string): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const parsed = parseJson(text);
  return parsed === NOT_JSON ? text : parsed;
}

/**
 * A resource's value: its text (JSON-parsed when its mime type says JSON), one content or an array
 * of several. Throws `MalformedResultError` for JSON nested too deeply to be a value.
 */
export function resourceValue(result: ResourceResult): unknown {
  const values = result.contents.map((content) => {
    if ('text' in content && typeof content.text === 'string') {
      const parsed = isJsonMimeType(content.mimeType) ? parseJson(content.text) : NOT_JSON;
      return parsed === NOT_JSON ? content.text : parsed;
    }
    return 'blob' in content ? content.blob : undefined;
  });
  return values.length === 1 ? values[0] : values;
}

function isJsonMimeType(mimeType: string | undefined): boolean {
  return mimeType !== undefined && /^application\/([\w.+-]+\+)?json\b/i.test(mimeType);
}

function parseJson(text: string): unknown {
  // Only objects, arrays, strings, numbers and literals can parse; skip the try for plain prose.
  // (Scans for the first non-space character rather than trimming: outputs can be megabytes.)
  let index = 0;
  let code = text.charCodeAt(0);
  while (code === 32 || code === 10 || code === 13 || code === 9) code = text.charCodeAt(++index);
  // { [ " - 0-9 t f n
  if (!(
    code === 123 ||
    code === 91 ||
    code === 34 ||
    code === 45 ||
    (code >= 48 && code <= 57) ||
    code === 116 ||
    code === 102 ||
    code === 110
  ))
    return NOT_JSON;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
  if (jsonMayNestTooDeeply(text) && nestedTooDeeply(value)) throw new MalformedResultError(`JSON ${TOO_DEEP}`);
  return value;
}
