import type { ResourceResult, ToolResult } from '../content';
import { MalformedResultError } from '../results/malformed-result-error';
import { TOO_DEEP, jsonMayNestTooDeeply, nestedTooDeeply } from '../results/value-depth';

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
  return parsed ? parsed.value : text;
}

/**
 * A resource's value: its text (JSON-parsed when its mime type says JSON), one content or an array
 * of several. Throws `MalformedResultError` for JSON nested too deeply to be a value.
 */
export function resourceValue(result: ResourceResult): unknown {
  const values = result.contents.map((content) => {
    if ('text' in content && typeof content.text === 'string') {
      const parsed = isJsonMimeType(content.mimeType) ? parseJson(content.text) : undefined;
      return parsed ? parsed.value : content.text;
    }
    return 'blob' in content ? content.blob : undefined;
  });
  return values.length === 1 ? values[0] : values;
}

function isJsonMimeType(mimeType: string | undefined): boolean {
  return mimeType !== undefined && /^application\/([\w.+-]+\+)?json\b/i.test(mimeType);
}

function parseJson(text: string): { value: unknown } | undefined {
  // Only objects, arrays, strings, numbers and literals can parse; skip the try for plain prose.
  // (Scans for the first non-space character rather than trimming: outputs can be megabytes.)
  let index = 0;
  while (index < text.length && (text[index] === ' ' || text[index] === '\n' || text[index] === '\r' || text[index] === '\t')) index += 1;
  const first = text[index];
  if (first === undefined || !'{["-0123456789tfn'.includes(first)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (jsonMayNestTooDeeply(text) && nestedTooDeeply(value)) throw new MalformedResultError(`JSON ${TOO_DEEP}`);
  return { value };
}
