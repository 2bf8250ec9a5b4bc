import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { z } from 'zod';
import { WorkflowServer } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, askUser, field, promptArg } from '@mcpflow/decorators';

/**
 * DESIGN §2.8 "No oracles", as an attacker tries it over protocol 2026-07-28: a client that chooses
 * a prompt argument stored in the paused run next to a secret a tool returned must learn nothing
 * about the secret from the `requestState` it gets back.
 */

@Workflow({
  name: 'deploy',
  description: 'Deploy a service with a session token',
  arguments: { service: z.string(), note: z.string() },
})
class Deploy {
  @Step({ tool: 'sign_in', args: { service: promptArg('service') } })
  @Bind('session')
  session!: { token: string };

  @Step({
    tool: 'deploy',
    args: { token: field('session', 'token'), service: promptArg('service'), confirm: askUser('Deploy {service} now?') },
    sensitiveArgs: ['token'],
  })
  deployed!: unknown;
}

const closers: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A stateless 2.x endpoint whose sign_in tool returns the token `secret()` holds at the time. */
async function deployEndpoint(secret: () => string): Promise<URL> {
  const handler = createMcpHandler(
    () => {
      const server = new WorkflowServer(
        { name: 'deployer', version: '1.0.0' },
        { pause: { keys: ['the no-oracles test key, 32 bytes+'] } },
      );
      server.registerTool('sign_in', { inputSchema: z.object({ service: z.string() }) }, async () => ({
        content: [{ type: 'text', text: JSON.stringify({ token: secret() }) }],
        structuredContent: { token: secret() },
      }));
      server.registerTool(
        'deploy',
        { inputSchema: z.object({ token: z.string(), service: z.string(), confirm: z.string() }) },
        async () => ({
          content: [{ type: 'text', text: 'deployed' }],
        }),
      );
      return server.use(Deploy);
    },
    { legacy: 'reject' },
  );
  const serve = toNodeHandler(handler);
  const http: Server = createServer((request, response) => void serve(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  closers.push(
    () => handler.close(),
    () => new Promise((resolve) => http.close(resolve)),
  );
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

/** A 2.x client pinned to 2026-07-28 that hands `input_required` back to the test instead of answering. */
async function attacker(url: URL): Promise<(note: string) => Promise<string>> {
  const client = new Client(
    { name: 'attacker', version: '1.0.0' },
    {
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      capabilities: { elicitation: { form: {} } },
      inputRequired: { autoFulfill: false },
    },
  );
  await client.connect(new StreamableHTTPClientTransport(url));
  closers.push(() => client.close());
  return async (note) => {
    const round = (await client.request(
      { method: 'prompts/get', params: { name: 'deploy', arguments: { service: 'api', note } } } as never,
      { allowInputRequired: true } as never,
    )) as InputRequiredResult;
    if (round.resultType !== 'input_required' || typeof round.requestState !== 'string')
      throw new Error(`expected input_required, got ${JSON.stringify(round)}`);
    return round.requestState;
  };
}

test('the requestState length is the same whether the client guessed the token, a prefix of it, or nothing like it (H1)', async () => {
  let token = '';
  const stateFor = await attacker(await deployEndpoint(() => token));
  for (let trial = 0; trial < 5; trial += 1) {
    token = `tok_${randomBytes(18).toString('base64url')}`;
    const wrong = `tok_${randomBytes(18).toString('base64url')}`;
    const guesses = [token, token.slice(0, 12) + wrong.slice(12), wrong];
    const lengths = [];
    for (const guess of guesses) lengths.push((await stateFor(guess)).length);
    expect(new Set(lengths).size).toBe(1);
  }
});
