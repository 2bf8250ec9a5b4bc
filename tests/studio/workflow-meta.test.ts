import 'reflect-metadata';
import { z } from 'zod';
import { Bind, Step, Workflow, constant, field, item, present, promptArg, defineTool } from '@mcpflow/decorators';
import { readWorkflowModel } from '@mcpflow/core';
import { mermaidGraph } from '@mcpflow/core/model';
import { MATRIX } from '../helpers/lines';

/**
 * DESIGN §2.15: each workflow's prompt entry (`prompts/list`) and tool entry (`tools/list`) carry
 * `_meta["mcpflow/workflow"]` — its steps and the Mermaid text `mcpflow graph` prints — on both SDK
 * lines, so a client (the studio) draws any mcpflow server without its source.
 */

const listFiles = defineTool(
  'list_files',
  { description: 'Files', inputSchema: { dir: z.string() }, outputSchema: { files: z.array(z.string()) } },
  async () => ({ content: [{ type: 'text', text: '{"files":["a"]}' }], structuredContent: { files: ['a'] } }),
);
const check = defineTool('check', { description: 'Check', inputSchema: { file: z.string(), pin: z.string() } }, async () => ({
  content: [{ type: 'text', text: 'ok' }],
}));

@Workflow({ name: 'review', description: 'Review files', arguments: { dir: z.string() }, expose: { tool: true } })
class Review {
  @Step({ tool: listFiles, args: { dir: promptArg('dir') } })
  @Bind('listing')
  listing!: { files: string[] };

  @Step({ tool: check, args: { file: constant('a'), pin: constant('s3cr3t-pin') }, sensitiveArgs: ['pin'], parallel: true })
  lint!: unknown;

  @Step({ tool: check, args: { file: constant('b'), pin: constant('x') }, parallel: true, when: present(promptArg('dir')) })
  types!: unknown;

  @Step({ tool: check, forEach: field('listing', 'files'), args: { file: item(), pin: constant('y') } })
  each!: unknown;
}

const expectedSteps = [
  { name: 'listing', kind: 'tool' },
  { name: 'lint', kind: 'tool', group: 'g1' },
  { name: 'types', kind: 'tool', group: 'g1', when: true },
  { name: 'each', kind: 'tool', forEach: true },
];

describe.each(MATRIX)('_meta["mcpflow/workflow"] on $label', ({ line, transport }) => {
  test('prompts/list and tools/list entries carry the steps and the graph mcpflow graph prints, no secret', async () => {
    const client = await line.connect(() => new line.WorkflowServer({ name: 'meta', version: '1.0.0' }).use(Review), { transport });
    const graph = mermaidGraph(readWorkflowModel(Review)!);
    const expected = { 'mcpflow/workflow': { name: 'review', steps: expectedSteps, mermaid: graph } };
    const prompt = (await client.listPrompts()).prompts.find((entry) => entry.name === 'review');
    const tool = (await client.listTools()).tools.find((entry) => entry.name === 'review');
    expect(prompt?._meta).toEqual(expected);
    expect(tool?._meta).toEqual(expected);
    expect(graph).toContain('forEach');
    expect(JSON.stringify(prompt)).not.toContain('s3cr3t-pin');
    await client.close();
  });
});
