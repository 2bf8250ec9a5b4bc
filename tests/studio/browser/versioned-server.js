// The versions browser test's server (DESIGN §2.16 "Seen"): `release`, a workflow that declares
// version 2 and asks a question (so a task waits, and its tasks/get names the version), and
// `release_unversioned`, the same steps with no version. SDK 2.x, tasks in memory; plain JavaScript on
// the built packages, so `mcpflow dev --command` launches it with node.
//   node versioned-server.js             over stdio
//   PORT=0 node versioned-server.js      over HTTP; prints `listening on <url>` on stderr
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, Workflow, askUser, constant, promptArg } = require('@mcpflow/decorators');
const { WorkflowServer, memoryTasks, serveHttp, serveStdio } = require('@mcpflow/core/v2');

/** A workflow class of `name`: build, then publish to the channel the user picks. */
function release(name, version) {
  class Release {}
  Step({ tool: 'build', args: { branch: promptArg('branch') } })(Release.prototype, 'build');
  Bind('build')(Release.prototype, 'build');
  Step({ tool: 'publish', args: { channel: askUser('Publish {branch} to which channel?', { choices: constant(['beta', 'stable']) }) } })(
    Release.prototype,
    'publish',
  );
  Workflow({
    name,
    ...(version === undefined ? {} : { version }),
    description: `Build a branch and publish it${version === undefined ? '' : ` (version ${version})`}`,
    arguments: { branch: z.string() },
    expose: { prompt: true, tool: { task: 'optional' } },
  })(Release);
  return Release;
}

const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
const tasks = memoryTasks({ maxTasks: 20, ttlMs: 600_000, pollIntervalMs: 100 });

function build() {
  const server = new WorkflowServer({ name: 'versioned', version: '1.0.0' }, { tasks });
  server.registerTool('build', { inputSchema: z.object({ branch: z.string() }) }, async ({ branch }) =>
    text({ artifact: `${branch}.tgz` }),
  );
  server.registerTool('publish', { inputSchema: z.object({ channel: z.string() }) }, async ({ channel }) => text({ published: channel }));
  return server.use(release('release', '2'), release('release_unversioned'));
}

if (process.env.PORT === undefined) void serveStdio(build);
else void serveHttp(build, { port: Number(process.env.PORT) }).then((serving) => console.error(`listening on ${serving.url}`));
