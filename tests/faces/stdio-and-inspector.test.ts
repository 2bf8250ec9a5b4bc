import path from 'node:path';
import { inspector } from '../helpers/inspector-cli';
import { STDIO_MATRIX } from '../helpers/lines';

/**
 * The tool face served over stdio by a subprocess, as a host launches it (the 2025 protocol on both
 * lines, and 2026-07-28 on 2.x), and driven by @modelcontextprotocol/inspector-cli 1.0.3, which
 * lists and calls workflow tools like any other.
 */
const SERVER = path.join(__dirname, 'faces-server.js');

test.each(STDIO_MATRIX)('workflow tools over stdio: $label', async ({ line, transport }) => {
  const client = await line.connectStdio(SERVER, { transport });
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['compare_scores', 'get_hint', 'hint_for', 'lookup_player']);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['get_hint']);
    const result = await client.callTool({ name: 'compare_scores', arguments: { player: 'ada', rival: 'grace' } });
    expect(result.structuredContent).toEqual({
      status: 'completed',
      outputs: { first: { room: 'West of House', score: 3 }, second: { room: 'Cellar', score: 5 } },
    });
  } finally {
    await client.close();
  }
});

test('inspector-cli lists the workflow tools and calls one', async () => {
  const listed = await inspector(process.execPath, SERVER, '--sdk', '2', '--method', 'tools/list');
  expect(listed.status).toBe(0);
  const tools = listed.json.tools as { name: string; inputSchema: { required?: string[] } }[];
  expect(tools.find((tool) => tool.name === 'get_hint')?.inputSchema.required).toEqual(['player']);

  const called = await inspector(
    process.execPath,
    SERVER,
    '--sdk',
    '2',
    '--method',
    'tools/call',
    '--tool-name',
    'get_hint',
    '--tool-arg',
    'player=ada',
  );
  expect(called.status).toBe(0);
  expect(called.json.structuredContent).toEqual({
    status: 'completed',
    outputs: { progress: { room: 'West of House', score: 3 }, hint: 'Try the mailbox in West of House' },
  });
  expect((called.json.content as { text: string }[]).at(-1)?.text).toBe('Result of hint_for:\nTry the mailbox in West of House');
});
