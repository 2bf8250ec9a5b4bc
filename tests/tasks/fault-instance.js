// One instance of the task fault matrix (fault-matrix.test.ts), in its own process: serveHttp on
// 127.0.0.1 (its port printed as JSON on stdout) with bullmqTasks on the redis-server the test
// started, and the `pipeline` workflow (five steps, s1…s5) as a task tool. Each step's tool is a side
// effect the test can audit: as it starts it appends a line to the side-effect log (its step, the
// task's label, the run id, this instance, the time), then works for MCPFLOW_TEST_STEP_MS (aborted
// with its signal: it appends an `aborted` line then). An optional `payload` argument goes to every
// step (big arguments: each step's call, in the run's trace, carries it).
// Plain JavaScript on the built packages, so the test spawns it with node.
// Environment: MCPFLOW_TEST_REDIS_PORT, MCPFLOW_TEST_KEYS (a JSON array), MCPFLOW_TEST_LOG (the log's
// path), MCPFLOW_TEST_INSTANCE (this instance's name), MCPFLOW_TEST_LOCK_MS and MCPFLOW_TEST_STALLED_MS
// (`default`: bullmqTasks's own, 30 s each), MCPFLOW_TEST_STEP_MS.
require('reflect-metadata');
const { appendFileSync } = require('node:fs');
const { setTimeout: sleep } = require('node:timers/promises');
const { z } = require('zod');
const { RUN_META_KEY, WorkflowServer, bullmqTasks, serveHttp } = require('@mcpflow/core/v2');
const { Bind, Step, Workflow, promptArg } = require('@mcpflow/decorators');

const STEPS = ['s1', 's2', 's3', 's4', 's5'];
class Pipeline {}
for (const step of STEPS) {
  Step({ tool: step, args: { label: promptArg('label'), payload: promptArg('payload') } })(Pipeline.prototype, `${step}_done`);
  Bind(`${step}_done`)(Pipeline.prototype, `${step}_done`);
}
Workflow({
  name: 'pipeline',
  version: '5.0',
  description: 'Five steps, each a side effect',
  arguments: { label: z.string(), payload: z.string().optional() },
  expose: { prompt: false, tool: { task: 'required' } },
})(Pipeline);

const instance = process.env.MCPFLOW_TEST_INSTANCE;
const log = (line) => appendFileSync(process.env.MCPFLOW_TEST_LOG, `${JSON.stringify({ ...line, instance, at: Date.now() })}\n`);
const tasks = bullmqTasks({
  connection: { host: '127.0.0.1', port: Number(process.env.MCPFLOW_TEST_REDIS_PORT) },
  // Wait for Redis to answer, however loaded the machine (a 1 s limit made an instance started
  // under load exit before its first task): no case here is about Redis away at start.
  connectTimeoutMs: 60_000,
  prefix: 'fault-test',
  ...lockOptions(),
});

/** The lock and the stalled check of the test (3 s and 1 s unless told), or bullmqTasks's defaults. */
function lockOptions() {
  const lockMs = process.env.MCPFLOW_TEST_LOCK_MS ?? '3000';
  const stalledMs = process.env.MCPFLOW_TEST_STALLED_MS ?? '1000';
  return {
    ...(lockMs === 'default' ? {} : { lockDurationMs: Number(lockMs) }),
    ...(stalledMs === 'default' ? {} : { stalledIntervalMs: Number(stalledMs) }),
  };
}
const pause = { keys: JSON.parse(process.env.MCPFLOW_TEST_KEYS) };
const stepMs = Number(process.env.MCPFLOW_TEST_STEP_MS ?? 600);

function pipeline() {
  const server = new WorkflowServer({ name: 'pipelines', version: '1.0.0' }, { tasks, pause });
  for (const step of STEPS) {
    const inputSchema = z.object({ label: z.string(), payload: z.string().optional() });
    server.registerTool(step, { inputSchema }, async ({ label, payload }, ctx) => {
      const run = ctx.mcpReq._meta?.[RUN_META_KEY]?.id;
      log({ event: 'start', step, label, run });
      try {
        await sleep(stepMs, undefined, { signal: ctx.mcpReq.signal });
      } catch (error) {
        log({ event: 'aborted', step, label, run });
        throw error;
      }
      return { content: [{ type: 'text', text: JSON.stringify({ step, payloadBytes: payload?.length ?? 0 }) }] };
    });
  }
  return server.use(Pipeline);
}

(async () => {
  const serving = await serveHttp(pipeline, { port: 0 });
  process.stdout.write(`${JSON.stringify({ port: Number(serving.url.port) })}\n`);
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
