/**
 * A connection served over stdio, as `serveStdio` (from `@mcpflow/core/v1` or `@mcpflow/core/v2`)
 * returns it.
 *
 * @example
 * const serving = await serveStdio(createServer);
 * process.on('SIGTERM', () => void serving.close());
 */
export interface StdioServing {
  /** Closes the server and the transport. */
  close(): Promise<void>;
}

/**
 * How `serveStdio` serves, on either line.
 *
 * @example
 * await serveStdio(createServer, { onerror: (error) => log.error(error) });
 */
export interface StdioServingOptions {
  /**
   * Where failures no client sees are reported: a server from the factory that cannot serve (at
   * start, and then the process exits with code 1), a transport's error. Default: stderr, a broken
   * workflow with its code, workflow, step and fix.
   */
  onerror?: (error: Error) => void;
}
