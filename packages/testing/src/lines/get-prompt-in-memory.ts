import type { ExecutionMeta, PromptMessage } from '@mcpflow/core';
import type { LineResult } from './line-run';

/** What a run needs of either line's `Client`, linked to the server in memory. */
interface PromptClient<T> {
  connect(transport: T): Promise<void>;
  close(): Promise<void>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(params: { name: string; arguments: Record<string, string> }): Promise<{ messages: unknown[]; _meta?: Record<string, unknown> }>;
}

/** What a run needs of either line's server. */
interface PromptServer<T> {
  connect(transport: T): Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects a line's client and server over a linked in-memory pair, gets the server's one prompt
 * with the run's arguments, and closes both: the whole of a run on a 2025 session.
 */
export async function getPromptInMemory<C, S>(
  client: PromptClient<C>,
  server: PromptServer<S>,
  [clientTransport, serverTransport]: readonly [C, S],
  args: Readonly<Record<string, string>>,
  metaKey: string,
): Promise<LineResult> {
  await server.connect(serverTransport);
  try {
    await client.connect(clientTransport);
    const [prompt] = (await client.listPrompts()).prompts;
    const result = await client.getPrompt({ name: prompt.name, arguments: { ...args } });
    return { messages: result.messages as PromptMessage[], meta: result._meta?.[metaKey] as ExecutionMeta };
  } finally {
    await client.close();
    await server.close();
  }
}
