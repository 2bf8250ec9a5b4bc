/**
 * What the kit calls on a line's `McpServer` (both lines have these methods): registering what a
 * workflow needs, and connecting.
 */
export interface McpServerLike {
  registerTool(name: string, config: object, handler: never): unknown;
  registerResource(name: string, uriOrTemplate: never, metadata: object, callback: never): unknown;
  registerPrompt(name: string, config: object, callback: never): unknown;
  connect(transport: never): Promise<void>;
  /** The line's low-level protocol server, which dispatches requests to handlers. */
  readonly server: { setRequestHandler(...args: never[]): unknown };
}
