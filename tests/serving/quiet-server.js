// An HTTP server with nothing registered, for the quiet-stderr tests. Plain JavaScript on the built
// packages, so the test spawns it with node and reads its stderr as an operator would.
//   node quiet-server.js <1|2>     prints `listening on <url>` once serving
require('reflect-metadata');
const { WorkflowServer, serveHttp } = require(`@mcpflow/core/v${process.argv[2]}`);

void serveHttp(() => new WorkflowServer({ name: 'quiet', version: '1.0.0' }), { port: 0 }).then((serving) =>
  console.log(`listening on ${serving.url}`),
);
