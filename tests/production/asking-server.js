// A stdio server whose one workflow asks the user in place, for the bounded-waiting tests:
//   node [--max-old-space-size=192] asking-server.js <1|2>
// Plain JavaScript on the built packages, so the test spawns it with node, as an MCP host launches a server.
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, Workflow, askUser } = require('@mcpflow/decorators');

const sdk = process.argv[2];
const { WorkflowServer, serveStdio } = require(sdk === '1' ? '@mcpflow/core/v1' : '@mcpflow/core/v2');

class Note {}
Step({ tool: 'write', args: { text: askUser('What should the note to {who} say?') } })(Note.prototype, 'written');
Bind('written')(Note.prototype, 'written');
Workflow({ name: 'note', description: 'Write a note', arguments: { who: z.string(), pad: z.string().optional() } })(Note);

void serveStdio(() => {
  // Default options: the ask cap (100) is what bounds the waiting runs; a waiting run does not count under the run caps.
  const server = new WorkflowServer({ name: 'notes', version: '1.0.0' });
  const inputSchema = sdk === '1' ? { text: z.string() } : z.object({ text: z.string() });
  server.registerTool('write', { inputSchema }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server.use(Note);
});
