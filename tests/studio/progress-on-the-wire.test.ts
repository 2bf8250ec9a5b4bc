import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { STUDIO_SERVER } from './studio-client';

/**
 * What a server on either SDK line writes for a `prompts/get` that passes a progress token, read
 * off the stdio wire: a progress notification per step (and per forEach element), all before the
 * result. (Both SDK lines' `Client` hand a notification to `onprogress` a microtask late, and drop
 * it once the result has arrived in the same stdio chunk — so a client may see fewer; the
 * studio's timeline therefore reads `_meta["mcpflow/timing"]` durations, not progress.)
 */
describe.each([1, 2])('progress on the stdio wire, server on SDK %i.x', (sdk) => {
  test('prompts/get with a progress token: every step reported before the result', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [STUDIO_SERVER, '--sdk', String(sdk)], stderr: 'pipe' });
    const seen: JSONRPCMessage[] = [];
    const answered = new Map<number, () => void>();
    transport.onmessage = (message) => {
      seen.push(message);
      if ('id' in message && !('method' in message)) answered.get(Number(message.id))?.();
    };
    const request = (id: number, method: string, params: Record<string, unknown>) =>
      new Promise<void>((resolve) => {
        answered.set(id, resolve);
        void transport.send({ jsonrpc: '2.0', id, method, params });
      });
    await transport.start();
    try {
      await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'wire', version: '1' } });
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      seen.length = 0;
      await request(2, 'prompts/get', { name: 'fan_out', arguments: {}, _meta: { progressToken: 'p' } });
      const messages = seen.map((message) =>
        'method' in message ? (message.params as { message: string }).message : `result ${String((message as { id: number }).id)}`,
      );
      expect(messages).toEqual([
        'Started step 1 of 4: items',
        'Finished step 1 of 4: items',
        'Finished step 2 of 4: first',
        'Finished step 3 of 4: second',
        'Started step 4 of 4: each',
        'Finished item 1 of 3 of step 4 of 4: each',
        'Finished item 2 of 3 of step 4 of 4: each',
        'Finished item 3 of 3 of step 4 of 4: each',
        'result 2',
      ]);
    } finally {
      await transport.close();
    }
  });
});
