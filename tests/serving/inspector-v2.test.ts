import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import path from 'node:path';
import { inspector } from '../helpers/inspector-cli';
import { EXAMPLES, serveExample } from './served-example';

/**
 * @modelcontextprotocol/inspector-cli 1.0.3 (a 2025 client) drives the main example served on SDK
 * 2.x, over stdio as `npm run inspect -- --sdk 2` runs it, and over HTTP through serveHttp.
 */
const CODE_REVIEW = path.join(EXAMPLES, 'dist', 'code-review', 'server.js');

type PromptResult = { _meta: Record<string, { status: string }>; messages: { role: string; content: { text: string } }[] };

function expectCodeReviewTrace(result: Record<string, unknown>): void {
  const { _meta, messages } = result as unknown as PromptResult;
  expect(_meta['mcpflow/execution'].status).toBe('completed');
  expect(messages[3].content.text).toBe('Calling tool analyze_code with arguments: {"code":"x = 1","language":"python"}');
}

test('with --sdk 2 the stdio example is served by SDK 2.x: a client pinned to 2026-07-28 connects', async () => {
  const client = new Client({ name: 'line-probe', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CODE_REVIEW, '--sdk', '2'] }));
  expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
  expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['code_review']);
  await client.close();
});

test('inspector-cli over stdio: prompts/list and prompts/get on the 2.x example', async () => {
  const listed = await inspector(process.execPath, CODE_REVIEW, '--sdk', '2', '--method', 'prompts/list');
  expect(listed.status).toBe(0);
  expect((listed.json.prompts as { name: string }[]).map((prompt) => prompt.name)).toEqual(['code_review']);
  const got = await inspector(
    process.execPath,
    CODE_REVIEW,
    '--sdk',
    '2',
    '--method',
    'prompts/get',
    '--prompt-name',
    'code_review',
    '--prompt-args',
    'code=x = 1',
    'language=python',
  );
  expect(got.status).toBe(0);
  expectCodeReviewTrace(got.json);
});

test('inspector-cli over HTTP: prompts/get on the 2.x example served by serveHttp', async () => {
  const served = await serveExample('code-review/server.js', ['--sdk', '2']);
  try {
    expect(served.stderr()).toMatch(/\(SDK 2\.x: MCP 2026-07-28 stateless, 2025 clients in sessions\)/);
    const got = await inspector(
      served.url.href,
      '--transport',
      'http',
      '--method',
      'prompts/get',
      '--prompt-name',
      'code_review',
      '--prompt-args',
      'code=x = 1',
      'language=python',
    );
    expect(got.status).toBe(0);
    expectCodeReviewTrace(got.json);
  } finally {
    served.stop();
  }
});
