/** A server that can check itself before it serves (a WorkflowServer; a plain McpServer cannot). */
interface Validating {
  validate(): void;
  /** What cannot be checked synchronously (a task store's packages). */
  ready?(): Promise<void>;
}

/**
 * Builds one server from a serving factory and checks it (`validate()`, then `ready()`) before any
 * connection is accepted, so a broken workflow, an unregistered tool or resource, an option out of
 * range or a missing package of the task store fails at start, not as an `Internal server error` on every request. Throws what the factory or
 * the check throws.
 *
 * @example
 * ```ts
 * const server = await firstServer(() => factory({ era: 'modern' }));
 * ```
 */
export async function firstServer<S>(build: () => S | Promise<S>): Promise<S> {
  const server = await build();
  if (typeof (server as Partial<Validating> | undefined)?.validate === 'function') {
    (server as Validating).validate();
    await (server as Validating).ready?.();
  }
  return server;
}

/**
 * {@link firstServer} for a process that serves over stdio: a server that cannot serve is
 * reported (`onerror`, stderr by default) and the process exits with code 1 — a client that
 * launched it sees it end, and its log shows why.
 *
 * @example
 * ```ts
 * const server = await firstServerOrExit(factory, options.onerror);
 * await server.connect(new StdioServerTransport());
 * ```
 */
export async function firstServerOrExit<S>(build: () => S | Promise<S>, onerror: (error: Error) => void): Promise<S> {
  try {
    return await firstServer(build);
  } catch (error) {
    onerror(error instanceof Error ? error : new Error(String(error)));
    return process.exit(1);
  }
}
