// The server of the @mcpflow/client tests, in its own process: serveStdio, or serveHttp on a free
// 127.0.0.1 port (MCPFLOW_TEST_HTTP=1; its URL printed as JSON on stdout). It serves `deploy`, a task
// tool (build, then ship once the user picks a channel), and `echo`, a plain tool. Each step's tool
// appends what happens to it to the file MCPFLOW_TEST_LOG (`build:start`, `build:aborted`, `ship:start`),
// so a test sees what ran on the server. `build` takes MCPFLOW_TEST_BUILD_MS (default 50).
// Plain JavaScript on the built packages, so the test spawns it with node.
require('reflect-metadata');
const { appendFileSync } = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');
const { z } = require('zod');
const { WorkflowServer, memoryTasks, serveHttp, serveStdio } = require('@mcpflow/core/v2');
const { Bind, Step, Workflow, askUser, constant, field, promptArg } = require('@mcpflow/decorators');

const log = (line) => process.env.MCPFLOW_TEST_LOG && appendFileSync(process.env.MCPFLOW_TEST_LOG, `${line}\n`);

class Deploy {}
Step({ tool: 'build', args: { target: promptArg('target') } })(Deploy.prototype, 'built');
Bind('built')(Deploy.prototype, 'built');
Step({
  tool: 'ship',
  args: {
    artifact: field('built', 'artifact'),
    channel: askUser('Ship {target} to which channel?', { choices: constant(['beta', 'stable']) }),
  },
})(Deploy.prototype, 'shipped');
Bind('shipped')(Deploy.prototype, 'shipped');
Workflow({
  name: 'deploy',
  version: '2026.11',
  description: 'Build a target, then ship it to the channel the user picks',
  arguments: { target: z.string() },
  expose: { prompt: false, tool: { task: 'optional' } },
})(Deploy);

const tasks = memoryTasks({ pollIntervalMs: 20 });

function createServer() {
  const server = new WorkflowServer({ name: 'client-test', version: '1.0.0' }, { tasks });
  server.registerTool('build', { inputSchema: z.object({ target: z.string() }) }, async ({ target }, ctx) => {
    log('build:start');
    const signal = ctx.mcpReq.signal;
    signal.addEventListener('abort', () => log('build:aborted'), { once: true });
    await sleep(Number(process.env.MCPFLOW_TEST_BUILD_MS ?? 50), undefined, { signal });
    return { content: [{ type: 'text', text: JSON.stringify({ artifact: `${target}.tgz` }) }] };
  });
  server.registerTool('ship', { inputSchema: z.object({ artifact: z.string(), channel: z.string() }) }, async ({ artifact, channel }) => {
    log('ship:start');
    return { content: [{ type: 'text', text: `shipped ${artifact} to ${channel}` }] };
  });
  server.registerTool('echo', { inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
    content: [{ type: 'text', text }],
    structuredContent: { echoed: text },
  }));
  return process.env.MCPFLOW_TEST_NO_TASKS === '1' ? server : server.use(Deploy);
}

if (process.env.MCPFLOW_TEST_HTTP === '1')
  void serveHttp(createServer, { port: 0 }).then((serving) => {
    process.stdout.write(`${JSON.stringify({ url: serving.url.href })}\n`);
    process.once('SIGTERM', () => void serving.close().then(() => process.exit(0)));
  });
else void serveStdio(createServer);
