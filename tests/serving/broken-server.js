// A server process with a broken workflow, for the fail-fast tests. Plain JavaScript on the built
// packages, so the test spawns it with node, as a user's MCP client launches a server.
//   node broken-server.js <1|2> <stdio|http> <unregistered|use|option|later>
// - unregistered: the workflow calls a tool nothing registers (91016, found by validate());
// - use: the class reads a binding no step binds (91001, thrown by use());
// - option: a server option out of range (maxTraceBytes);
// - later: the first server from the factory is sound; every later one throws (91001).
// Over HTTP it prints `listening on <url>` once serving, or `rejected with <error name>` and exits 2.
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, Workflow, fromStep, promptArg } = require('@mcpflow/decorators');

const [line, transport, breakage] = process.argv.slice(2);
const { WorkflowServer, serveHttp, serveStdio } = require(`@mcpflow/core/v${line}`);

class Report {}
Step({ tool: 'get_sales', args: { region: promptArg('region') } })(Report.prototype, 'sales');
Bind('sales')(Report.prototype, 'sales');
Workflow({ name: 'broken_report', description: 'Sum up sales', arguments: { region: z.string() } })(Report);

class Summary {}
Step({ tool: 'get_sales', args: { region: fromStep('regions') } })(Summary.prototype, 'sales');
Workflow({ name: 'summary', description: 'Sum up sales everywhere' })(Summary);

let built = 0;
function factory() {
  built += 1;
  const server = new WorkflowServer({ name: 'sales', version: '1.0.0' }, breakage === 'option' ? { maxTraceBytes: 10 } : {});
  if (breakage !== 'unregistered') {
    const inputSchema = line === '1' ? { region: z.string() } : z.object({ region: z.string() });
    server.registerTool('get_sales', { inputSchema }, async ({ region }) => ({ content: [{ type: 'text', text: `${region}: 42` }] }));
  }
  server.use(Report);
  if (breakage === 'use' || (breakage === 'later' && built > 1)) server.use(Summary);
  return server;
}

if (transport === 'stdio') {
  serveStdio(factory).then(() => console.error('serving on stdio'));
} else {
  serveHttp(factory, { port: 0 }).then(
    (serving) => console.error(`listening on ${serving.url}`),
    (error) => {
      console.error(`rejected with ${error.name}`);
      process.exit(2);
    },
  );
}
