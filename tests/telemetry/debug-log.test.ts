import * as path from 'node:path';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import type { ExecutionMeta } from '@mcpflow/core';
import { STDIO_MATRIX } from '../helpers/lines';
import { findSecret } from '../helpers/secrets';

/**
 * `DEBUG=mcpflow` and the `logger` option (DESIGN §1 "Serving"), as a user meets them: a real
 * server process over stdio on each SDK line (and 2.x's 2026-07-28 rounds), its stderr read as an
 * MCP client host would show it. One line per run start and end, step, question, pause and resume;
 * names, statuses, counts and durations only — never the key, the player or the answer.
 */
const SCRIPT = path.join(__dirname, 'logged-server.js');
const KEY = 'sk_live_TOPSECRET_9f8e7d';
const PLAYER = 'Ada Lovelace-Byron';
const ANSWER = 'the third drawer, left';

interface Served {
  readonly meta: ExecutionMeta;
  /** Every line the server wrote on stderr. */
  readonly stderr: string[];
}

/** Runs the vault workflow once against a fresh server process, answering its question; what the client got and the server's stderr. */
async function serve(
  line: 'v1' | 'v2',
  transport: 'stdio' | 'stateless',
  env: Record<string, string>,
  args: string[] = [],
): Promise<Served> {
  const params = {
    command: process.execPath,
    args: [SCRIPT, '--sdk', line === 'v1' ? '1' : '2', ...args],
    env: { ...getDefaultEnvironment(), ...env },
    stderr: 'pipe' as const,
  };
  const answer = { action: 'accept' as const, content: { drawer: ANSWER } };
  let stderr = '';
  let client: { getPrompt(request: object): Promise<{ _meta?: Record<string, unknown> }>; close(): Promise<void> };
  if (line === 'v1') {
    const transport1 = new StdioClientTransportV1(params);
    transport1.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const v1 = new ClientV1({ name: 'log-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    v1.setRequestHandler(ElicitRequestSchema, async () => answer);
    await v1.connect(transport1);
    client = v1;
  } else {
    const transport2 = new StdioClientTransportV2(params);
    transport2.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const v2 = new ClientV2(
      { name: 'log-test', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {} } },
        ...(transport === 'stateless' ? { versionNegotiation: { mode: { pin: '2026-07-28' as const } } } : {}),
      },
    );
    v2.setRequestHandler('elicitation/create', async () => answer);
    await v2.connect(transport2);
    client = v2 as unknown as typeof client;
  }
  const result = await client.getPrompt({ name: 'vault', arguments: { api_key: KEY, player: PLAYER } });
  await client.close();
  return { meta: result._meta?.['mcpflow/execution'] as ExecutionMeta, stderr: stderr.split('\n').filter(Boolean) };
}

/** The lines as a test can compare them: durations, which vary, as `N ms`. */
const steady = (lines: string[]) => lines.map((text) => text.replace(/ in \d+(\.\d)? ms/g, ' in N ms'));

const IN_PLACE = [
  'mcpflow run vault started: prompts/get vault, 5 steps',
  'mcpflow step vault/session completed in N ms: execute_tool login',
  'mcpflow step vault/audit failed in N ms: execute_tool audit',
  'mcpflow step vault/profile completed in N ms: resources/read vault://players/{player}',
  'mcpflow step vault/rooms completed in N ms: execute_tool inspect, 3 elements (3 completed)',
  'mcpflow ask vault drawer/drawer: askUser',
  'mcpflow step vault/drawer completed in N ms: execute_tool open_drawer',
  'mcpflow run vault completed in N ms',
];

/** On 2026-07-28 the question pauses the run; the client's retry resumes it, in the same process here. */
const BY_ROUNDS = [
  ...IN_PLACE.slice(0, 6),
  'mcpflow pause vault: 1 question put, round 1 ended in N ms',
  'mcpflow run vault resumed: prompts/get vault, round 2',
  ...IN_PLACE.slice(6),
];

describe.each(STDIO_MATRIX)('$label', ({ line, transport }) => {
  const expected = transport === 'stateless' ? BY_ROUNDS : IN_PLACE;

  test('DEBUG=mcpflow: one stderr line per run start and end, step, question, pause and resume, and never a value', async () => {
    const { meta, stderr } = await serve(line.name, transport, { DEBUG: 'mcpflow' });
    expect(meta.status).toBe('completed');
    expect(steady(stderr)).toEqual(expected);
    for (const value of [KEY, PLAYER, ANSWER]) expect(findSecret(stderr, value)).toBeUndefined();
  });

  test.each([
    ['a function', 'function'],
    ['an object with debug()', 'object'],
  ])('%s as the logger option gets the same lines, and nothing goes to stderr by itself', async (_label, logger) => {
    const { stderr } = await serve(line.name, transport, {}, ['--logger', logger]);
    expect(steady(stderr)).toEqual(expected.map((text) => `[app] ${text}`));
    for (const value of [KEY, PLAYER, ANSWER]) expect(findSecret(stderr, value)).toBeUndefined();
  });

  test('without DEBUG naming mcpflow, and without a logger, the server logs nothing', async () => {
    const { meta, stderr } = await serve(line.name, transport, { DEBUG: 'express:*,-mcpflow' });
    expect(meta.status).toBe('completed');
    expect(stderr).toEqual([]);
  });
});
