import 'reflect-metadata';
import { z } from 'zod';
import { Step, Workflow, promptArg } from '@mcpflow/decorators';
import { IN_MEMORY } from '../helpers/lines';

/**
 * Which `DEBUG` values turn mcpflow's lines on, as the `debug` package reads them: a comma- or
 * space-separated list of patterns, `*` a wildcard, `-` excluding. Read when a server is made.
 */
@Workflow({ name: 'greet', arguments: { name: z.string() } })
class Greet {
  @Step({ tool: 'hello', args: { name: promptArg('name') } })
  greeting!: unknown;
}

const PATTERNS: [string, boolean][] = [
  ['mcpflow', true],
  ['mcpflow*', true],
  ['*', true],
  ['express:*,mcpflow', true],
  ['express:* mcpflow', true],
  ['mcp*', true],
  ['express:*', false],
  ['*,-mcpflow', false],
  ['mcpflow,-mcp*', false],
  ['mcpflow:*', false],
  ['', false],
];

describe.each(IN_MEMORY)('$label', ({ line, transport }) => {
  test.each(PATTERNS)('DEBUG=%j turns the debug lines on: %s', async (debug, logs) => {
    const written: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const before = process.env.DEBUG;
    process.env.DEBUG = debug;
    try {
      const client = await line.connect(
        () => {
          const server = new line.WorkflowServer({ name: 'greeter', version: '1.0.0' });
          server.registerTool('hello', { inputSchema: { name: z.string() } }, async ({ name }) => ({
            content: [{ type: 'text', text: `hello ${name}` }],
          }));
          return server.use(Greet);
        },
        { transport },
      );
      await client.getPrompt({ name: 'greet', arguments: { name: 'Grace' } });
      await client.close();
    } finally {
      write.mockRestore();
      process.env.DEBUG = before;
    }
    const lines = written
      .join('')
      .split('\n')
      .filter((text) => text.startsWith('mcpflow '));
    expect(lines.map((text) => text.replace(/ in \d+(\.\d)? ms/, ' in N ms'))).toEqual(
      logs
        ? [
            'mcpflow run greet started: prompts/get greet, 1 step',
            'mcpflow step greet/greeting completed in N ms: execute_tool hello',
            'mcpflow run greet completed in N ms',
          ]
        : [],
    );
  });
});
