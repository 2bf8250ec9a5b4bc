import type { ContentBlock, PromptMessage } from '../content';
import { formatCount } from '../text/bounded-text';

/** What `_meta["mcpflow/execution"].truncated` says when a result was cut to fit `maxTraceBytes`. */
export interface TraceTruncation {
  readonly limitBytes: number;
  /** Messages shortened, each ending with a note of what was left out. */
  readonly messagesCut: number;
  /** Whole messages left out (when shortening the largest was not enough), replaced by one note. */
  readonly messagesDropped: number;
}

/** Room each note of a cut takes, in bytes. */
const NOTE_BYTES = 200;

/**
 * Fits a trace's messages into `maxBytes` of JSON, with `reservedBytes` kept for the rest of the
 * result (`_meta`, description): the largest messages are shortened first, each ending with a note
 * saying how much is not shown; if that is not enough, messages after the first `opening` ones
 * (instructions, intent, plan) are left out, replaced by one note; the last message (the result,
 * handoff or failure) is kept. Returns the messages unchanged when they fit.
 *
 * Messages bounded once may be bounded again to a smaller budget (the tool face makes room for its
 * `structuredContent`): a message cut before is cut further under one note that counts every
 * character left out, and a note of messages left out counts them all when it goes too. The
 * truncation then counts only what this pass cut and left out anew.
 *
 * @example
 * ```ts
 * const bounded = boundTrace(messages, 8 * 1024 * 1024, 2_000, 2);
 * if (bounded.truncation) meta.truncated = bounded.truncation;
 * ```
 */
export function boundTrace(
  messages: PromptMessage[],
  maxBytes: number,
  reservedBytes: number,
  opening: number,
): { messages: PromptMessage[]; truncation?: TraceTruncation } {
  const budget = maxBytes - reservedBytes;
  // Cheap bound first: no string grows more than 6 bytes a UTF-16 unit in JSON (\u0000 escapes).
  if (!Number.isFinite(maxBytes) || 6 * stringLength(messages) + 64 * messages.length <= budget) return { messages };
  const sizes = messages.map(jsonBytes);
  let excess = sizes.reduce((sum, size) => sum + size + 1, 0) - budget;
  if (excess <= 0) return { messages };

  const bounded = [...messages];
  let messagesCut = 0;
  const largestFirst = sizes.map((size, index) => ({ size, index })).sort((a, b) => b.size - a.size);
  for (const { size, index } of largestFirst) {
    if (excess <= 0 || size <= NOTE_BYTES * 2) break;
    const target = Math.max(NOTE_BYTES, size - excess - NOTE_BYTES);
    bounded[index] = cutMessage(messages[index], target, maxBytes);
    const newSize = jsonBytes(bounded[index]);
    excess -= size - newSize;
    sizes[index] = newSize;
    if (!cutBefore(messages[index])) messagesCut += 1;
  }

  let messagesDropped = 0;
  if (excess > 0) {
    // One run of messages goes: from after the opening towards the last message, then, if that is
    // still not enough, back into the opening. The last message always stays.
    const last = bounded.length - 1;
    let start = Math.min(opening, last);
    let end = start;
    while (excess > -NOTE_BYTES && end < last) {
      excess -= sizes[end] + 1;
      end += 1;
    }
    while (excess > -NOTE_BYTES && start > 0) {
      start -= 1;
      excess -= sizes[start] + 1;
    }
    let notShown = 0;
    for (let index = start; index < end; index += 1) {
      const before = droppedBefore(bounded[index]);
      notShown += before ?? 1;
      if (before === undefined) messagesDropped += 1;
    }
    const note: PromptMessage = {
      role: 'user',
      content: { type: 'text', text: `[truncated by mcpflow: ${formatCount(notShown)} messages not shown; ${limitText(maxBytes)}]` },
    };
    bounded.splice(start, end - start, note);
  }
  return { messages: bounded, truncation: { limitBytes: maxBytes, messagesCut, messagesDropped } };
}

function cutMessage(message: PromptMessage, targetBytes: number, maxBytes: number): PromptMessage {
  const { content } = message;
  if (content.type === 'text') return { ...message, content: { ...content, text: cutText(content.text, targetBytes, maxBytes) } };
  if (content.type === 'resource' && typeof content.resource.text === 'string') {
    return {
      ...message,
      content: { ...content, resource: { ...content.resource, text: cutText(content.resource.text, targetBytes, maxBytes) } },
    };
  }
  // A blob, an image or audio cannot be cut in half: say what it was instead.
  const omitted: ContentBlock = {
    type: 'text',
    text: `[truncated by mcpflow: ${describeBlock(content)} of ${formatCount(jsonBytes(message))} bytes not shown; ${limitText(maxBytes)}]`,
  };
  return { ...message, content: omitted };
}

/**
 * The text cut so its JSON takes about `targetBytes`, ending with a note of what is left out (a
 * text cut before loses its note, and the new one counts what the first left out too).
 */
function cutText(cut: string, targetBytes: number, maxBytes: number): string {
  const earlier = CUT_NOTE.exec(cut);
  const text = earlier ? cut.slice(0, earlier.index) : cut;
  const before = earlier ? Number(earlier[1].replace(/,/g, '')) : 0;
  let keep = Math.floor(text.length * Math.min(1, targetBytes / Math.max(1, jsonBytes(text))));
  let kept = safeSlice(text, keep);
  while (keep > 0 && jsonBytes(kept) > targetBytes) {
    keep = Math.floor(keep * 0.9);
    kept = safeSlice(text, keep);
  }
  return `${kept}\n[truncated by mcpflow: ${formatCount(before + text.length - kept.length)} more characters not shown; ${limitText(maxBytes)}]`;
}

/** The note `cutText` ends a text with; its count of characters left out. */
const CUT_NOTE = /\n\[truncated by mcpflow: ([\d,]+) more characters not shown; [^\n]*\]$/;
/** The note that stands for messages left out; their count. */
const DROP_NOTE = /^\[truncated by mcpflow: ([\d,]+) messages not shown; [^\n]*\]$/;

/** Whether an earlier pass cut this message. */
function cutBefore(message: PromptMessage): boolean {
  const { content } = message;
  const text = content.type === 'text' ? content.text : content.type === 'resource' ? content.resource.text : undefined;
  return typeof text === 'string' && CUT_NOTE.test(text);
}

/** How many messages this one stands for, if it is the note of an earlier pass's left-out messages. */
function droppedBefore(message: PromptMessage): number | undefined {
  const found = message.content.type === 'text' ? DROP_NOTE.exec(message.content.text) : null;
  return found ? Number(found[1].replace(/,/g, '')) : undefined;
}

function limitText(maxBytes: number): string {
  return `the trace is limited to ${formatCount(maxBytes)} bytes (maxTraceBytes)`;
}

function describeBlock(content: ContentBlock): string {
  if (content.type === 'resource') return `the resource ${String(content.resource.uri).slice(0, 200)}`;
  return `a ${content.type} content`;
}

/** The first `length` UTF-16 units, never ending on half a surrogate pair. */
function safeSlice(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

function stringLength(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 8;
  let total = 0;
  for (const [key, item] of Object.entries(value)) total += key.length + stringLength(item);
  return total;
}
