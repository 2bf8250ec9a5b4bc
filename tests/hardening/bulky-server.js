// The trace-size tests' server in a process of its own, over stdio: `bulky`, a workflow served as a
// prompt and a tool whose first step returns as many characters as its `size` argument asks (then
// "THE-END"), and whose second step says it finished. Plain JavaScript on the built packages, so a
// test launches it with node. Flags: --sdk 1|2.
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, Workflow, promptArg } = require('@mcpflow/decorators');

const sdk = process.argv[process.argv.indexOf('--sdk') + 1] === '1' ? 1 : 2;
const { WorkflowServer, serveStdio } = require(sdk === 1 ? '@mcpflow/core/v1' : '@mcpflow/core/v2');

class Bulky {}
Step({ tool: 'produce', args: { size: promptArg('size') } })(Bulky.prototype, 'produced');
Bind('produced')(Bulky.prototype, 'produced');
Step({ tool: 'finish' })(Bulky.prototype, 'finished');
Workflow({ name: 'bulky', arguments: { size: z.string() }, expose: { tool: true } })(Bulky);

void serveStdio(() => {
  const server = new WorkflowServer({ name: 'bulky', version: '1.0.0' });
  server.registerTool('produce', { inputSchema: z.object({ size: z.string() }) }, async ({ size }) => ({
    content: [{ type: 'text', text: `${'y'.repeat(Number(size))}THE-END` }],
  }));
  server.registerTool('finish', { inputSchema: z.object({}) }, async () => ({ content: [{ type: 'text', text: 'finished fine' }] }));
  return server.use(Bulky);
});
