// One instance of the durable-tasks tests, in its own process: serveHttp on 127.0.0.1 (a free port,
// printed as JSON on stdout) with bullmqTasks on the redis-server the test started, and the
// `release` workflow (build, test, sign, publish) as a task tool whose tools count their calls here.
// GET /counts answers how often each tool ran in this process, GET /runs the run ids `build` and `sign` saw.
// With MCPFLOW_TEST_HANG=sign, `sign` never returns here (the test kills this process mid-step).
// Plain JavaScript on the built packages, so the test spawns it with node.
// Environment: MCPFLOW_TEST_REDIS_PORT, MCPFLOW_TEST_KEYS (a JSON array), MCPFLOW_TEST_HANG (optional),
// MCPFLOW_TEST_LOCK_MS (BullMQ's lock duration; default 1500, so a killed instance's round is soon taken over).
// MCPFLOW_TEST_CONNECT_MS (how long to wait for Redis at start; default 60 s).
require('reflect-metadata');
const { createServer } = require('node:http');
const { z } = require('zod');
const { RUN_META_KEY, WorkflowServer, bullmqTasks, serveHttp } = require('@mcpflow/core/v2');
const { Bind, Step, Workflow, field, promptArg } = require('@mcpflow/decorators');

class Release {}
Step({ tool: 'build', args: { version: promptArg('version') } })(Release.prototype, 'built');
Bind('built')(Release.prototype, 'built');
Step({ tool: 'test', args: { artifact: field('built', 'artifact') } })(Release.prototype, 'tested');
Bind('tested')(Release.prototype, 'tested');
Step({ tool: 'sign', args: { artifact: field('tested', 'artifact') } })(Release.prototype, 'signed');
Bind('signed')(Release.prototype, 'signed');
Step({ tool: 'publish', args: { artifact: field('signed', 'artifact') } })(Release.prototype, 'published');
Workflow({
  name: 'release',
  description: 'Build, test, sign and publish a version',
  arguments: { version: z.string() },
  expose: { prompt: false, tool: { task: 'required' } },
})(Release);

const counts = { build: 0, test: 0, sign: 0, publish: 0 };
const runs = [];
const tasks = bullmqTasks({
  connection: { host: '127.0.0.1', port: Number(process.env.MCPFLOW_TEST_REDIS_PORT) },
  // Wait for Redis to answer, however loaded the machine (a 1 s limit made an instance started
  // under load exit before its first task); the case of Redis away at start sets its own limit.
  connectTimeoutMs: Number(process.env.MCPFLOW_TEST_CONNECT_MS ?? 60_000),
  prefix: 'durable-test',
  // No stalledIntervalMs: it follows the lock, so a short lock alone gives a quick takeover (with
  // BullMQ's 30 s check the takeover tests below would wait a minute).
  lockDurationMs: Number(process.env.MCPFLOW_TEST_LOCK_MS ?? 1500),
});
const pause = { keys: JSON.parse(process.env.MCPFLOW_TEST_KEYS) };

function release() {
  const server = new WorkflowServer({ name: 'releases', version: '1.0.0' }, { tasks, pause });
  for (const name of Object.keys(counts)) {
    server.registerTool(
      name,
      { inputSchema: z.object({ version: z.string().optional(), artifact: z.string().optional() }) },
      async (args, ctx) => {
        counts[name] += 1;
        if (name === 'sign' || name === 'build') runs.push(ctx.mcpReq._meta?.[RUN_META_KEY]?.id);
        if (process.env.MCPFLOW_TEST_HANG === name) await new Promise(() => {});
        const artifact = `${args.artifact ?? `app-${args.version}`}+${name}`;
        return { content: [{ type: 'text', text: JSON.stringify({ artifact }) }] };
      },
    );
  }
  return server.use(Release);
}

(async () => {
  const serving = await serveHttp(release, { port: 0 });
  const probe = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(request.url === '/runs' ? runs : counts));
  });
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  process.on('SIGTERM', async () => {
    // serveHttp's close() hands the rounds in flight to the other instances.
    await serving.close();
    probe.close();
    process.exit(0);
  });
  process.stdout.write(`${JSON.stringify({ port: Number(serving.url.port), probe: probe.address().port })}\n`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
