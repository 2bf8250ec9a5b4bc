import 'reflect-metadata';
import { Step, Workflow, defineResource } from '@mcpflow/decorators';
import { MATRIX } from '../helpers/lines';

const glossary = defineResource('glossary', 'docs://glossary', { mimeType: 'text/markdown' }, async (uri) => ({
  contents: [{ uri: uri.href, mimeType: 'text/markdown', text: 'MCP: Model Context Protocol.' }],
}));

@Workflow({ name: 'write_docs', description: 'Write the docs', instructions: ['Write plainly.'], resources: ['docs://style', glossary] })
class WriteDocs {
  @Step({ tool: 'outline' })
  outlined!: unknown;
}

describe.each(MATRIX)('instruction resources: $label', ({ line, transport }) => {
  test('are embedded after the instructions, by URI or by definition (which use() registers)', async () => {
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'docs', version: '1.0.0' });
      server.registerResource('style', 'docs://style', { mimeType: 'text/plain' }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Short sentences.' }],
      }));
      server.registerTool('outline', {}, async () => ({ content: [{ type: 'text', text: '1. Intro' }] }));
      return server.use(WriteDocs);
    };
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'write_docs' });
    expect(result.messages.slice(0, 4)).toEqual([
      { role: 'user', content: { type: 'text', text: 'Write plainly.' } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'docs://style', mimeType: 'text/plain', text: 'Short sentences.' } } },
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: 'docs://glossary', mimeType: 'text/markdown', text: 'MCP: Model Context Protocol.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Write the docs' } },
    ]);
    expect((await client.listResources()).resources.map((resource) => resource.uri).sort()).toEqual(['docs://glossary', 'docs://style']);
    await client.close();
  });

  test('one that cannot be read is named in the trace, and the steps still run', async () => {
    const factory = () => {
      const server = new line.WorkflowServer({ name: 'docs', version: '1.0.0' });
      server.registerResource('style', 'docs://style', {}, async () => {
        throw new Error('style guide is being edited');
      });
      server.registerTool('outline', {}, async () => ({ content: [{ type: 'text', text: '1. Intro' }] }));
      return server.use(WriteDocs);
    };
    const client = await line.connect(factory, { transport });
    const result = await client.getPrompt({ name: 'write_docs' });
    const second = result.messages[1].content;
    expect(second.type).toBe('text');
    expect((second as { text: string }).text).toMatch(
      /^Could not read instruction resource docs:\/\/style: .*style guide is being edited.*\.$/,
    );
    expect(result._meta?.['mcpflow/execution']).toMatchObject({ status: 'completed' });
    await client.close();
  });
});
