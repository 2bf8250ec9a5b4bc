import type { ContentBlock, PromptMessage, ResourceResult } from '../content';
import type { Redactor } from '../redaction/redactor';

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

  /** Each content of a resource read, embedded as MCP `resource` content (text or blob, never flattened). */
  embed(result: ResourceResult): void {
    for (const content of result.contents) {
      const resource = 'text' in content && typeof content.text === 'string' ? { ...content, text: this.redact(content.text) } : content;
      this.messages.push({ role: 'user', content: { type: 'resource', resource } });
    }
  }

  redact(text: string): string {
    return this.redactor.active ? this.redactor.redact(text) : text;
  }
}
