import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const EXAMPLES = path.join(__dirname, '..', '..', 'examples');
const CODE_REVIEW = path.join(EXAMPLES, 'dist', 'code-review', 'server.js');

/** Starts the main example with --http on a free port and resolves with its URL once it listens. */
function startHttpExample(): Promise<{ child: ChildProcess; url: URL }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CODE_REVIEW, '--http', '--port', '0'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) resolve({ child, url: new URL(match[1]) });
    });
    child.on('exit', (code) => reject(new Error(`example exited with ${code}: ${stderr}`)));
  });
}

test('the main example serves Streamable HTTP on 127.0.0.1, a session per client', async () => {
  const { child, url } = await startHttpExample();
  try {
    const clients = [new Client({ name: 'http-a', version: '1.0.0' }), new Client({ name: 'http-b', version: '1.0.0' })];
    await Promise.all(clients.map((client) => client.connect(new StreamableHTTPClientTransport(url))));
    const [a, b] = await Promise.all([
      clients[0].getPrompt({ name: 'code_review', arguments: { code: 'a()' } }),
      clients[1].getPrompt({ name: 'code_review', arguments: { code: 'b()' } }),
    ]);
    expect(a._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    expect(a.messages[3].content).toEqual({ type: 'text', text: 'Calling tool analyze_code with arguments: {"code":"a()"}' });
    expect(b.messages[3].content).toEqual({ type: 'text', text: 'Calling tool analyze_code with arguments: {"code":"b()"}' });
    expect((await clients[0].listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['code_review']);
    await Promise.all(clients.map((client) => client.close()));
  } finally {
    child.kill();
  }
});

describe('@modelcontextprotocol/inspector-cli drives the stdio example', () => {
  // inspector-cli must run from a folder whose parent holds a package.json: examples/ is one.
  const inspector = (...args: string[]) => {
    const cli = require.resolve('@modelcontextprotocol/inspector-cli/build/index.js');
    const result = spawnSync(process.execPath, [cli, process.execPath, CODE_REVIEW, ...args], {
      cwd: EXAMPLES,
      encoding: 'utf8',
      timeout: 30000,
    });
    expect(result.status).toBe(0);
    return JSON.parse(result.stdout) as Record<string, unknown>;
  };

  test('prompts/list', () => {
    expect(inspector('--method', 'prompts/list')).toEqual({
      prompts: [
        {
          name: 'code_review',
          description: 'Review source code: analyze it, review the findings, and annotate the code',
          arguments: [
            { name: 'code', description: 'Source code to review', required: true },
            { name: 'language', description: 'Programming language (default: typescript)', required: false },
          ],
          // What the studio draws the workflow from (DESIGN §2.15): its steps and the graph `mcpflow graph` prints.
          _meta: {
            'mcpflow/workflow': {
              name: 'code_review',
              steps: [
                { name: 'analysis', kind: 'tool' },
                { name: 'review', kind: 'tool' },
                { name: 'report', kind: 'tool' },
              ],
              mermaid: [
                'flowchart TD',
                '  start(["code_review"])',
                '  s0["analysis"]',
                '  s1["review"]',
                '  s2["report"]',
                '  start --> s0',
                '  s0 --> s1',
                '  s1 --> s2',
              ].join('\n'),
            },
          },
        },
      ],
    });
  });

  test('prompts/get with arguments returns the trace', () => {
    const result = inspector(
      '--method',
      'prompts/get',
      '--prompt-name',
      'code_review',
      '--prompt-args',
      'code=x = 1',
      'language=python',
    ) as {
      messages: { role: string; content: { text: string } }[];
      _meta: Record<string, { status: string }>;
    };
    expect(result._meta['mcpflow/execution'].status).toBe('completed');
    expect(result.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'assistant',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(result.messages[3].content.text).toBe('Calling tool analyze_code with arguments: {"code":"x = 1","language":"python"}');
  });
});
