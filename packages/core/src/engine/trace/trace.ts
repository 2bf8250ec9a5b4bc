import type { ContentBlock, PromptMessage, ResourceResult } from '../content';
import type { Redactor } from '../redaction/redactor';
import type { FilledUri } from '../uri/expand-uri';

/**
 * Writes the conversation of one execution into its messages (the execution state's own array);
 * every text passes through the run's redactor.
 */
export class Trace {
  constructor(
    readonly messages: PromptMessage[],
    private readonly redactor: Redactor,
  ) {}

  user(text: string): void {
    this.messages.push({ role: 'user', content: { type: 'text', text: this.redact(text) } });
  }

  assistant(text: string): void {
    this.messages.push({ role: 'assistant', content: { type: 'text', text: this.redact(text) } });
  }

  /** A tool's non-text content (images, audio, embedded resources, links), passed through as user messages. */
  userContent(block: ContentBlock): void {
    if (block.type === 'text') return this.user(block.text);
    if (block.type === 'resource' && typeof block.resource.text === 'string') {
      this.messages.push({ role: 'user', content: { ...block, resource: { ...block.resource, text: this.redact(block.resource.text) } } });
      return;
    }
    this.messages.push({ role: 'user', content: block });
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
      this.messages.push({ role: 'user', content: { type: 'resource', resource } });
    }
  }

  redact(text: string): string {
    return this.redactor.active ? this.redactor.redactInTrace(text) : text;
  }
}
