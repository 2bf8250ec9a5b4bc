import 'reflect-metadata';
import { z } from 'zod';
import { createMcpHandler, type GetPromptResult } from '@modelcontextprotocol/server';
import { StateSealer } from '@mcpflow/core';
import { WorkflowServer } from '@mcpflow/core/v2';
import { Bind, Step, Workflow, askUser, constant, field, promptArg } from '@mcpflow/decorators';
import { findSecret } from '../helpers/secrets';
import { getPrompt, manualClient, paused } from './instances';
import { servedOnLoopback } from '../helpers/loopback-handler';

/**
 * DESIGN §2.8 (issue 19, L7): sensitive prompt arguments and sensitive constants are never stored
 * in the sealed state — not even where a tool's output echoes one: a reference stands there, filled
 * in again on resume from the retry's arguments and the plan. The test holds the server's key, so
 * it reads the state as an attacker holding the key would. A secret a tool produced may be stored.
 */
const KEY = 'the sealed-secrets test key, 32 bytes or more';
const API_KEY = 'sk_live_51Hs8fKJq2T9xyzAPIKEY';
const PIN = '73914';
const TOKEN = 'tok_made_by_a_tool_8c1d';

@Workflow({
  name: 'release',
  description: 'Sign in, then release after a confirmation',
  arguments: { api_key: z.string(), note: z.string() },
  sensitiveArguments: ['api_key'],
})
class Release {
  @Step({ tool: 'sign_in', args: { key: promptArg('api_key'), pin: constant(PIN), note: promptArg('note') }, sensitiveArgs: ['pin'] })
  @Bind('session')
  session!: { echo: string; token: string; note: string };

  @Step({
    tool: 'release',
    args: { echo: field('session', 'echo'), token: field('session', 'token'), note: field('session', 'note'), go: askUser('Release now?') },
    sensitiveArgs: ['token'],
  })
  released!: unknown;
}

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A stateless 2.x endpoint whose sign_in echoes the key and the PIN and returns a token; `released` gets what release received. */
async function endpoint(released: Record<string, unknown>[]): Promise<URL> {
  const handler = createMcpHandler(
    () => {
      const server = new WorkflowServer({ name: 'releases', version: '1.0.0' }, { pause: { keys: [KEY] } });
      server.registerTool(
        'sign_in',
        { inputSchema: z.object({ key: z.string(), pin: z.string(), note: z.string() }) },
        async ({ key, pin, note }) => {
          const session = { echo: `signed in with ${key} and pin ${pin}`, token: TOKEN, note };
          return { content: [{ type: 'text', text: 'signed in' }], structuredContent: session };
        },
      );
      server.registerTool(
        'release',
        { inputSchema: z.object({ echo: z.string(), token: z.string(), note: z.string(), go: z.string() }) },
        async (args) => {
          released.push(args);
          return { content: [{ type: 'text', text: 'released' }] };
        },
      );
      return server.use(Release);
    },
    { legacy: 'reject' },
  );
  return servedOnLoopback(handler, closers);
}

async function pauseThenResume(note: string) {
  const released: Record<string, unknown>[] = [];
  const client = await manualClient(await endpoint(released), closers);
  const params = { name: 'release', arguments: { api_key: API_KEY, note } };
  const { requestState } = paused(await getPrompt(client, params));
  const opened = new StateSealer({ keys: [KEY] }).open(requestState, { prompt: 'release', arguments: params.arguments });
  const result = (await getPrompt(client, {
    ...params,
    inputResponses: { 'released/go': { action: 'accept', content: { go: 'yes' } } },
    requestState,
  })) as GetPromptResult;
  return { requestState, opened, result, released };
}

test('a sensitive argument and a sensitive constant echoed by a tool are not in the sealed state; the resumed run gets them back', async () => {
  const { opened, result, released } = await pauseThenResume('ship it');
  expect(findSecret(opened, API_KEY)).toBeUndefined();
  expect(findSecret(opened, PIN)).toBeUndefined();
  // A secret a tool produced is kept, encrypted with the state: only the state can bring it back.
  expect(JSON.stringify(opened)).toContain(TOKEN);
  expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
  expect(released).toEqual([{ echo: `signed in with ${API_KEY} and pin ${PIN}`, token: TOKEN, note: 'ship it', go: 'yes' }]);
});

test("a tool's output that looks like a reference stays what it was: no secret is filled into it", async () => {
  const forged = ['\uFDD20.0.0\uFDD3', '\uFDD21.0.0\uFDD3', '\uFDD4\uFDD2', 'plain \uFDD3 and \uFDD4'];
  for (const note of forged) {
    const { released, result } = await pauseThenResume(note);
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(released[0].note).toBe(note);
  }
});

test('the sealed length does not tell whether a client value matched a sensitive constant a tool echoed', async () => {
  // The note is echoed by the tool next to the PIN; a note equal to the PIN is referenced, a wrong one is not.
  const lengths = [];
  for (const note of [PIN, '00000', `${PIN.slice(0, 3)}00`]) lengths.push((await pauseThenResume(note)).requestState.length);
  expect(new Set(lengths).size).toBe(1);
});
