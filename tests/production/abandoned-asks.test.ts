import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';

/**
 * Issue 19, H2, as an attacker plays it: a 2025 client that declares elicitation and never answers
 * sends thousands of `prompts/get` on one session (a stdio connection). Each run that asks waits
 * for its answer; before the caps, every one of them held its run (and its arguments) for the whole
 * ask timeout, and a server with a 192 MB heap died. Now the session waits for at most
 * `maxPendingAsksPerSession` (100) answers: the rest are refused, and the server keeps serving.
 */

const SERVER = join(__dirname, 'asking-server.js');
const REQUESTS = 3_000;
/** Each run holds its arguments (and the trace quoting them) while it waits: 64 KB each makes 3,000 waits outgrow the heap. */
const ARGUMENT = 'x'.repeat(64 * 1024);

interface StdioLine {
  readonly sdk: '1' | '2';
  /** A client that declares elicitation and never answers, to the server run with `nodeArgs`. */
  connect(nodeArgs: string[], onQuestion: () => void): Promise<ClientV1>;
}

const LINES: StdioLine[] = [
  {
    sdk: '1',
    async connect(nodeArgs, onQuestion) {
      const client = new ClientV1({ name: 'never-answers', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, () => (onQuestion(), new Promise<never>(() => undefined)));
      await client.connect(new StdioTransportV1({ command: process.execPath, args: [...nodeArgs, SERVER, '1'], stderr: 'pipe' }));
      return client;
    },
  },
  {
    sdk: '2',
    async connect(nodeArgs, onQuestion) {
      const client = new ClientV2({ name: 'never-answers', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler('elicitation/create', () => (onQuestion(), new Promise<never>(() => undefined)));
      await client.connect(new StdioTransportV2({ command: process.execPath, args: [...nodeArgs, SERVER, '2'], stderr: 'pipe' }));
      return client as unknown as ClientV1;
    },
  },
];

describe.each(LINES)('SDK $sdk.x over stdio', (line) => {
  test('3,000 unanswered questions on one session: a 192 MB server survives, refuses beyond 100, and still answers prompts/list', async () => {
    let questions = 0;
    const client = await line.connect(['--max-old-space-size=192'], () => (questions += 1));
    try {
      const refused: string[] = [];
      for (let index = 0; index < REQUESTS; index += 1) {
        client.getPrompt({ name: 'note', arguments: { who: `caller ${index}`, pad: ARGUMENT } }, { timeout: 600_000 }).then(
          // A run admitted together with the 100th may find the session full when it asks: it hands off, naming the cap.
          (result) => void refused.push(String((result._meta?.['mcpflow/execution'] as { reason?: string }).reason)),
          (error: Error) => void refused.push(error.message.replace(/^(MCP error -?\d+: )+/, '')),
        );
      }
      // Every run either asked (and waits) or was refused: none is still on its way.
      while (questions + refused.length < REQUESTS) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(questions).toBe(100);
      expect(refused.filter((reason) => !reason.includes('(maxPendingAsksPerSession: 100)'))).toEqual([]);
      const atTheStart = refused.filter((reason) => reason.startsWith('Refused: this session already waits for 100 answers'));
      expect(atTheStart.length).toBeGreaterThan(REQUESTS - 200);
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['note']);
    } finally {
      await client.close();
    }
  }, 180_000);

  test('a client that closes stdin while a question is open: the server releases it and exits', async () => {
    const child = spawn(process.execPath, [SERVER, line.sdk], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    const lines = createInterface({ input: child.stdout });
    const seen = (method: string) =>
      new Promise<void>((resolve) => lines.on('line', (text) => (text.includes(`"method":"${method}"`) ? resolve() : undefined)));
    const initialized = new Promise<void>((resolve) => lines.once('line', () => resolve()));
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'leaving', version: '1.0.0' } },
    });
    await initialized;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const asked = seen('elicitation/create');
    send({ jsonrpc: '2.0', id: 2, method: 'prompts/get', params: { name: 'note', arguments: { who: 'Ada' } } });
    await asked;
    // The client goes away without answering: nothing but the open question keeps the process alive,
    // and it waits no longer than the connection (not the 2-minute ask timeout).
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
