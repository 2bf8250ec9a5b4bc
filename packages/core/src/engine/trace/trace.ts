import type { ContentBlock, PromptMessage, ResourceResult } from '../content';
import type { Redactor } from '../redaction/redactor';
import type { FilledUri } from '../uri/expand-uri';
import { jsonBytesBound } from './json-size';

/** An upper bound of a text message's JSON, less its text: `{"role":"assistant","content":{"type":"text","text":""}}` and a comma. */
const TEXT_MESSAGE_BYTES = 64;

/**
 * Writes the conversation of one execution into its messages (the execution state's own array);
 * every text passes through the run's redactor. It keeps an upper bound of their JSON size as it
 * writes them (`bytesBound`), so checking the result against `maxTraceBytes` needs no walk of the
 * messages in the common case: write to the array only through a Trace (`append` merges another's).
 */
export class Trace {
  private bytes: number;

  constructor(
    readonly messages: PromptMessage[],
    private readonly redactor: Redactor,
  ) {
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
    if (block.type === 'resource' && typeof block.resource.text === 'string') {
      return this.push({ role: 'user', content: { ...block, resource: { ...block.resource, text: this.redact(block.resource.text) } } });
    }
    this.push({ role: 'user', content: block });
  }

  /**
   * Each content of a resource read, embedded as MCP `resource` content (text or blob, never
   * flattened). A content whose `uri` is the URI read (`read.uri`) shows it as the trace shows that
   * URI (`read.shown`: the client's values in it marked), not as the handler echoed it.
   */
  embed(result: ResourceResult, read?: FilledUri): void {
    for (const content of result.contents) {
      let resource = 'text' in content && typeof content.text === 'string' ? { ...content, text: this.redact(content.text) } : content;
      if (read && read.shown !== read.uri && resource.uri === read.uri) resource = { ...resource, uri: read.shown };
      this.push({ role: 'user', content: { type: 'resource', resource } });
    }
  }

  /** Adds another trace's messages (a parallel step's, a loop iteration's) after these. */
  append(other: Trace): void {
    for (const message of other.messages) this.messages.push(message);
    this.bytes += other.bytes;
  }

  redact(text: string): string {
    return this.redactor.active ? this.redactor.redactInTrace(text) : text;
  }

  private text(role: 'user' | 'assistant', text: string): void {
    const redacted = this.redact(text);
    this.messages.push({ role, content: { type: 'text', text: redacted } });
    this.bytes += 6 * redacted.length + TEXT_MESSAGE_BYTES;
  }

  private push(message: PromptMessage): void {
    this.messages.push(message);
    this.bytes += jsonBytesBound(message) + 1;
  }
}
