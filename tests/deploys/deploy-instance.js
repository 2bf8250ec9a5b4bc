// One instance of the rolling-deploy test, in its own process: serveHttp on 127.0.0.1 (a free port;
// 2026-07-28 and 2025-era sessions) with bullmqTasks on the redis-server the test started, serving
// one build of the release workflows (MCPFLOW_TEST_BUILD: `v1` or `v2`, the module release-<build>.js).
// Its tools log each call here as `<tool> <release>`: GET /calls answers the log. A `sign` of a
// release whose name starts with `hang` never returns on build v1 (the test stops that instance mid-step).
// Prints `{ port, probe }` as JSON on stdout once serving. Environment: MCPFLOW_TEST_BUILD,
// MCPFLOW_TEST_REDIS_PORT, MCPFLOW_TEST_KEYS (a JSON array); DEBUG=mcpflow for the debug lines.
require('reflect-metadata');
const { createServer } = require('node:http');
const { z } = require('zod');
const { WorkflowServer, bullmqTasks, serveHttp } = require('@mcpflow/core/v2');

const build = process.env.MCPFLOW_TEST_BUILD;
const { workflows } = require(`./release-${build}.js`);

const calls = [];
const tasks = bullmqTasks({
  connection: { host: '127.0.0.1', port: Number(process.env.MCPFLOW_TEST_REDIS_PORT) },
  // Wait for Redis to answer, however loaded the machine (a 1 s limit made an instance started
  // under load exit before its first task): no case here is about Redis away at start.
  connectTimeoutMs: 60_000,
  prefix: 'rolling-deploy',
  lockDurationMs: 1500,
  stalledIntervalMs: 1000,
});
const pause = { keys: JSON.parse(process.env.MCPFLOW_TEST_KEYS) };

function releases() {
  const server = new WorkflowServer({ name: 'releases', version: '1.0.0' }, { tasks, pause });
  const input = z.object({ release: z.string(), target: z.string().optional() });
  for (const tool of ['build', 'scan', 'sign', 'ship', 'announce']) {
    server.registerTool(tool, { inputSchema: input }, async ({ release, target }) => {
      calls.push(`${tool} ${release}`);
      if (tool === 'sign' && build === 'v1' && release.startsWith('hang')) await new Promise(() => {});
      const value = tool === 'build' ? { targets: ['staging', 'production'] } : { [tool]: release, ...(target && { target }) };
      return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
    });
  }
  return server.use(...workflows);
}

(async () => {
  const serving = await serveHttp(releases, { port: 0 });
  const probe = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(calls));
  });
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  process.on('SIGTERM', async () => {
    // serveHttp's close() hands the rounds in flight to the other instances, and closes every session.
    await serving.close();
    probe.close();
    process.exit(0);
  });
  process.stdout.write(`${JSON.stringify({ port: Number(serving.url.port), probe: probe.address().port })}\n`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
