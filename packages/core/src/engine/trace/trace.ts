import type { ContentBlock, PromptMessage, ResourceResult } from '../content';
import type { FilledUri } from '../uri/expand-uri';
import { jsonBytesBound } from './json-size';

/** An upper bound of a text message's JSON, less its text: `{"role":"assistant","content":{"type":"text","text":""}}` and a comma. */
const TEXT_MESSAGE_BYTES = 64;

/**
 * Writes the conversation of one execution into its messages (the execution state's own array).
 * Texts are kept as written — not redacted, the client's marks in place: the result redacts them
 * with the run's complete set of secrets as it is sent, and a paused run seals them with its
 * sensitive values referenced (DESIGN §2.8). Stored already redacted, a tool's echo of the
 * client's text would be shorter where it equals a secret, and the sealed state's length would tell
 * (issue 31.6). It keeps an upper bound of their JSON size as it writes them (`bytesBound`), so
 * checking the result against `maxTraceBytes` needs no walk of the messages in the common case:
 * write to the array only through a Trace (`append` merges another's).
 */
export class Trace {
  private bytes: number;

  constructor(readonly messages: PromptMessage[]) {
    this.bytes = messages.length === 0 ? 0 : jsonBytesBound(messages);
  }

  /**
   * An upper bound of the UTF-8 bytes of the messages' JSON, as written (before any redaction
   * the result applies later). Messages removed from the array since keep counting.
   */
  get bytesBound(): number {
    return this.bytes;
  }

  user(text: string): void {
    this.text('user', text);
  }

  assistant(text: string): void {
    this.text('assistant', text);
  }

  /** A tool's non-text content (images, audio, embedded resources, links), passed through as user messages. */
  userContent(block: ContentBlock): void {
    if (block.type === 'text') return this.user(block.text);
    this.push({ role: 'user', content: block });
  }

  /**
   * Each content of a resource read, embedded as MCP `resource` content (text or blob, never
   * flattened). A content whose `uri` is the URI read (`read.uri`) shows it as the trace shows that
   * URI (`read.shown`: the client's values in it marked), not as the handler echoed it.
   */
  embed(result: ResourceResult, read?: FilledUri): void {
    for (const content of result.contents) {
      const resource = read && read.shown !== read.uri && content.uri === read.uri ? { ...content, uri: read.shown } : content;
      this.push({ role: 'user', content: { type: 'resource', resource } });
    }
  }

  /** Adds another trace's messages (a parallel step's, a loop iteration's) after these. */
  append(other: Trace): void {
    for (const message of other.messages) this.messages.push(message);
    this.bytes += other.bytes;
  }

  private text(role: 'user' | 'assistant', text: string): void {
    this.messages.push({ role, content: { type: 'text', text } });
    this.bytes += 6 * text.length + TEXT_MESSAGE_BYTES;
  }

  private push(message: PromptMessage): void {
    this.messages.push(message);
    this.bytes += jsonBytesBound(message) + 1;
  }
}
