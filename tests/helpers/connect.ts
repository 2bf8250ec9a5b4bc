import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A real SDK client connected to `server` over a linked in-memory pair. */
export async function connect(server: McpServer, options: { authInfo?: AuthInfo } = {}): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (options.authInfo) {
    const send = clientTransport.send.bind(clientTransport);
    clientTransport.send = (message, sendOptions) => send(message, { ...sendOptions, authInfo: options.authInfo });
  }
  const client = new Client({ name: 'mcpflow-test', version: '1.0.0' });
  await server.connect(serverTransport);
  await client.connect(clientTransport);
  return client;
}

/** Text of a prompt message, or the embedded resource it carries. */
export function messageText(message: { content: { type: string; text?: string; resource?: { uri: string } } }): string {
  if (message.content.type === 'text') return message.content.text ?? '';
  if (message.content.type === 'resource') return `[resource ${message.content.resource?.uri}]`;
  return `[${message.content.type}]`;
}
