import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

// Runs the compiled example (npm test builds first), as a user's MCP client would launch it.
const serverScript = path.join(__dirname, '..', 'examples', 'dist', 'get-hint', 'server.js');

test('the get_hint example serves over stdio as a subprocess', async () => {
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverScript], stderr: 'pipe' });
  const client = new Client({ name: 'stdio-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['get_hint']);
    const result = await client.getPrompt({ name: 'get_hint', arguments: { player: 'bob' } });
    expect(result.messages.at(-1)).toEqual({
      role: 'user',
      content: {
        type: 'resource',
        resource: {
          uri: 'if://walkthrough/hitchhiker',
          mimeType: 'text/markdown',
          text: "# The Hitchhiker's Guide\n1. Turn on the light.\n2. Get up.\n3. Take the gown.",
        },
      },
    });
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    const failed = await client.getPrompt({ name: 'get_hint', arguments: { player: 'carol' } });
    expect(failed._meta?.['mcpflow/execution']).toMatchObject({
      status: 'failed',
      stoppedAt: 'progress',
      reason: "tool get_my_progress returned an error: No saved game for player 'carol'",
    });
  } finally {
    await client.close();
  }
});
