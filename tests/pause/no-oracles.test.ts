import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Client, StreamableHTTPClientTransport, type InputRequiredResult } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { WorkflowClass } from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, askUser, constant, field, promptArg } from '@mcpflow/decorators';
import { servedOnLoopback } from '../helpers/loopback-handler';

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
  return servedOnLoopback(handler, closers);
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

/**
 * The property of issue 19 ("Tests that must pass"): for random secrets the server holds — a
 * sensitive constant and a token a tool returns — and a client that guesses one of them as its own
 * argument and answer, what comes back does not depend on whether the guess is right. The right
 * guess is compared with a wrong one of the same characters (so of the same length in any
 * encoding), which shares a prefix with the secret: the `requestState` has the same length, and
 * the question and the final trace are the same once the client's own text is set aside.
 */
describe('property: state length and redacted trace are independent of a guess being right', () => {
  const CHARS = [...'abcxyzABC0189_-/ "\\%<é漢🙂'];
  const secretText = fc
    .string({ unit: fc.constantFrom(...CHARS), minLength: 10, maxLength: 20 })
    .filter((text) => new Set(text).size >= 4 && !'[redacted]'.includes(text));
  const current = { pin: '', token: '' };
  const classes = new Map<string, WorkflowClass>();

  /** The deploy workflow with `pin` as its sensitive constant (a class per constant, as a decorator takes it). */
  function guarded(pin: string): WorkflowClass {
    let found = classes.get(pin);
    if (!found) {
      @Workflow({
        name: 'guarded_deploy',
        description: 'Deploy with a PIN and a session',
        arguments: { service: z.string(), note: z.string() },
      })
      class GuardedDeploy {
        @Step({ tool: 'sign_in', args: { service: promptArg('service') } })
        @Bind('session')
        session!: { token: string };

        @Step({
          tool: 'deploy',
          args: {
            token: field('session', 'token'),
            pin: constant(pin),
            note: promptArg('note'),
            confirm: askUser('Deploy {service} with note {note}?'),
          },
          sensitiveArgs: ['token', 'pin'],
        })
        deployed!: unknown;
      }
      classes.set(pin, (found = GuardedDeploy));
    }
    return found;
  }

  let url: URL;
  beforeAll(async () => {
    const handler = createMcpHandler(
      () => {
        const server = new WorkflowServer(
          { name: 'deployer', version: '1.0.0' },
          { pause: { keys: ['the property test key, 32 bytes or more'] } },
        );
        server.registerTool('sign_in', { inputSchema: z.object({ service: z.string() }) }, async () => ({
          content: [{ type: 'text', text: JSON.stringify({ token: current.token }) }],
          structuredContent: { token: current.token },
        }));
        server.registerTool(
          'deploy',
          { inputSchema: z.object({ token: z.string(), pin: z.string(), note: z.string(), confirm: z.string() }) },
          async () => ({
            content: [{ type: 'text', text: 'deployed' }],
          }),
        );
        return server.use(guarded(current.pin));
      },
      { legacy: 'reject' },
    );
    url = await servedOnLoopback(handler, closers);
  });

  /** Both rounds of a run whose client sends `guess` as its note and its answer. */
  async function seen(client: Client, guess: string) {
    const params = { name: 'guarded_deploy', arguments: { service: 'api', note: guess } };
    const first = (await client.request(
      { method: 'prompts/get', params } as never,
      { allowInputRequired: true } as never,
    )) as InputRequiredResult;
    const { requestState, ...question } = first;
    if (typeof requestState !== 'string') throw new Error(`expected input_required, got ${JSON.stringify(first)}`);
    const result = (await client.request(
      {
        method: 'prompts/get',
        params: { ...params, inputResponses: { 'deployed/confirm': { action: 'accept', content: { confirm: guess } } }, requestState },
      } as never,
      { allowInputRequired: true } as never,
    )) as Record<string, unknown>;
    // The guess as the client sent it shows in text (escaped once here) and in argument dumps (JSON in a text: twice).
    const escape = (text: string) => JSON.stringify(text).slice(1, -1);
    let withoutGuess = JSON.stringify({ question, result });
    for (const form of [escape(escape(guess)), escape(guess)]) withoutGuess = withoutGuess.split(form).join('⟨guess⟩');
    return { stateLength: requestState.length, withoutGuess };
  }

  /** The secret with the characters after `at` rotated by one: the same characters, a shared prefix, a different text. */
  function nearMiss(secret: string, at: number): string {
    const chars = [...secret];
    const cut = at % (chars.length - 1);
    const tail = chars.slice(cut);
    return [...chars.slice(0, cut), ...tail.slice(1), tail[0]].join('');
  }

  test('for random secrets and guesses, through a real 2.x client on 2026-07-28', async () => {
    const client = new Client(
      { name: 'guesser', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    closers.push(() => client.close());
    await fc.assert(
      fc.asyncProperty(
        secretText,
        secretText,
        fc.constantFrom('pin' as const, 'token' as const),
        fc.nat(),
        async (pin, token, target, at) => {
          const right = target === 'pin' ? pin : token;
          const wrong = nearMiss(right, at);
          fc.pre(wrong !== right && pin !== token);
          Object.assign(current, { pin, token });
          const [hit, miss] = [await seen(client, right), await seen(client, wrong)];
          expect(hit.stateLength).toBe(miss.stateLength);
          expect(hit.withoutGuess).toBe(miss.withoutGuess);
        },
      ),
      { numRuns: 25, seed: 19_2026 },
    );
  }, 60_000);
});

/**
 * Issue 31.6, the red team's experiment: a tool that echoes the client's own (non-sensitive)
 * argument puts the client's guess into the paused run next to the server's secrets. Whether the
 * guess equals a secret — a token a tool returned, or a sensitive constant — must not move the
 * sealed state's length by a single character, and the result must come back in the same shape.
 * (The echo is the tool's text, not the client's: the result shows `[redacted]` where it repeats a
 * secret, as docs/security.md says; the state, readable in round 1, must not tell.)
 */
describe('property: a tool that echoes the client text does not make the state length an oracle (31.6)', () => {
  const CHARS = [...'abcxyzABC0189_-/ "\\%<é漢🙂'];
  const secretText = fc
    .string({ unit: fc.constantFrom(...CHARS), minLength: 8, maxLength: 24 })
    .filter((text) => new Set(text).size >= 4 && !'[redacted]'.includes(text) && !text.includes('[redacted]'));
  const current = { pin: '', token: '' };
  const classes = new Map<string, WorkflowClass>();

  /** Sign in, echo the client's note back (an ordinary tool), then ask before deploying with the token and a PIN. */
  function echoing(pin: string): WorkflowClass {
    let found = classes.get(pin);
    if (!found) {
      @Workflow({
        name: 'echo_deploy',
        description: 'Deploy after echoing a note',
        arguments: { service: z.string(), note: z.string() },
      })
      class EchoDeploy {
        @Step({ tool: 'sign_in', args: { service: promptArg('service') } })
        @Bind('session')
        session!: { token: string };

        @Step({ tool: 'echo', args: { text: promptArg('note') } })
        @Bind('echoed')
        echoed!: unknown;

        @Step({
          tool: 'deploy',
          // The question offers the echo as a choice: the paused request holds it too.
          args: {
            token: field('session', 'token'),
            pin: constant(pin),
            confirm: askUser('Deploy {service}?', { choices: field('echoed', 'options') }),
          },
          sensitiveArgs: ['token', 'pin'],
        })
        deployed!: unknown;
      }
      classes.set(pin, (found = EchoDeploy));
    }
    return found;
  }

  let url: URL;
  beforeAll(async () => {
    const handler = createMcpHandler(
      () => {
        const server = new WorkflowServer(
          { name: 'echoer', version: '1.0.0' },
          { pause: { keys: ['the echo oracle test key, 32 bytes+'] } },
        );
        server.registerTool('sign_in', { inputSchema: z.object({ service: z.string() }) }, async () => ({
          content: [{ type: 'text', text: JSON.stringify({ token: current.token }) }],
          structuredContent: { token: current.token },
        }));
        server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
          content: [{ type: 'text', text: `you said: ${text}` }],
          structuredContent: { said: text, options: ['go', text] },
        }));
        server.registerTool('deploy', { inputSchema: z.object({ token: z.string(), pin: z.string(), confirm: z.string() }) }, async () => ({
          content: [{ type: 'text', text: 'deployed' }],
        }));
        return server.use(echoing(current.pin));
      },
      { legacy: 'reject' },
    );
    url = await servedOnLoopback(handler, closers);
  });

  /** Both rounds of a run whose client sends `guess` as its note: the state's length, and the result with the guess and redactions set aside. */
  async function seen(client: Client, guess: string) {
    const params = { name: 'echo_deploy', arguments: { service: 'api', note: guess } };
    const first = (await client.request(
      { method: 'prompts/get', params } as never,
      { allowInputRequired: true } as never,
    )) as InputRequiredResult;
    const { requestState, ...question } = first;
    if (typeof requestState !== 'string') throw new Error(`expected input_required, got ${JSON.stringify(first)}`);
    const result = (await client.request(
      {
        method: 'prompts/get',
        params: { ...params, inputResponses: { 'deployed/confirm': { action: 'accept', content: { confirm: 'go' } } }, requestState },
      } as never,
      { allowInputRequired: true } as never,
    )) as Record<string, unknown>;
    const escape = (text: string) => JSON.stringify(text).slice(1, -1);
    let shape = JSON.stringify({ question, result });
    for (const form of [escape(escape(guess)), escape(guess), escape(escape('[redacted]')), escape('[redacted]')])
      shape = shape.split(form).join('⟨guess⟩');
    return { stateLength: requestState.length, shape };
  }

  test('the red team, for random secrets and same-length guesses, through a real 2.x client on 2026-07-28', async () => {
    const client = new Client(
      { name: 'echo-guesser', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { elicitation: { form: {} } },
        inputRequired: { autoFulfill: false },
      },
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    closers.push(() => client.close());
    await fc.assert(
      fc.asyncProperty(
        secretText,
        secretText,
        fc.constantFrom('pin' as const, 'token' as const),
        fc.nat(),
        async (pin, token, target, at) => {
          const right = target === 'pin' ? pin : token;
          const chars = [...right];
          const cut = at % (chars.length - 1);
          const wrong = [...chars.slice(0, cut), ...chars.slice(cut + 1), chars[cut]].join('');
          fc.pre(wrong !== right && right !== 'go' && pin !== token && !pin.includes(token) && !token.includes(pin));
          Object.assign(current, { pin, token });
          const [hit, miss] = [await seen(client, right), await seen(client, wrong)];
          expect(hit.stateLength).toBe(miss.stateLength);
          expect(hit.shape).toBe(miss.shape);
        },
      ),
      { numRuns: 25, seed: 31_2026 },
    );
  }, 60_000);
});
