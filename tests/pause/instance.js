// One server instance for the pause-and-resume tests, in its own process: protocol 2026-07-28
// over stateless HTTP on 127.0.0.1 (a free port, printed as JSON on stdout), the add_project_task
// workflow, a prompt and a tool (its tools named by string, so their calls are counted here) and one with a sensitive
// argument, and one whose tool records the run id it sees. GET /counts answers how often each tool ran in this process, GET /runs
// the run ids the recording tool saw. Plain JavaScript on the built packages, so the test spawns it with node.
// Environment: MCPFLOW_TEST_KEYS (a JSON array of keys), MCPFLOW_TEST_VERSION (which version of add_project_task, see projectTask), MCPFLOW_TEST_TTL (seconds, optional), MCPFLOW_TEST_REDIS (a redis:// URL:
// pause through redisReplayGuard on it) with MCPFLOW_TEST_REDIS_CLIENT (`node-redis` or `ioredis`).
require('reflect-metadata');
const { createServer } = require('node:http');
const { z } = require('zod');
const { createMcpHandler } = require('@modelcontextprotocol/server');
const { toNodeHandler } = require('@modelcontextprotocol/node');
const { RUN_META_KEY, WorkflowServer, redisReplayGuard } = require('@mcpflow/core/v2');
const { Bind, Step, Workflow, askUser, field, promptArg } = require('@mcpflow/decorators');

/**
 * add_project_task as one version of it (MCPFLOW_TEST_VERSION, for a rolling deploy): `1`; `appended`, a step
 * `audited` after the question; `inserted`, that step before it; `inserted-previous`, that and version 1 kept in previous.
 */
function projectTask(version) {
  class AddProjectTask {}
  const audited = () => Step({ tool: 'audit', args: { task: promptArg('task') } })(AddProjectTask.prototype, 'audited');
  Step({ tool: 'list_pages', args: { query: promptArg('project') } })(AddProjectTask.prototype, 'pages');
  Bind('pages')(AddProjectTask.prototype, 'pages');
  if (version.startsWith('inserted')) audited();
  Step({
    tool: 'add_task',
    args: { project: askUser("Which project page should '{task}' go on?", { choices: field('pages', 'names') }), task: promptArg('task') },
  })(AddProjectTask.prototype, 'added');
  if (version === 'appended') audited();
  Workflow({
    name: 'add_project_task',
    description: 'Add a task to a project',
    arguments: { project: z.string(), task: z.string() },
    expose: { tool: true },
    version,
    ...(version === 'inserted-previous' && { previous: [projectTask('1')] }),
  })(AddProjectTask);
  return AddProjectTask;
}
const AddProjectTask = projectTask(process.env.MCPFLOW_TEST_VERSION ?? '1');

class AddPrivateTask {}
Step({ tool: 'authorize', args: { api_key: promptArg('api_key') } })(AddPrivateTask.prototype, 'session');
Bind('session')(AddPrivateTask.prototype, 'session');
Step({ tool: 'list_pages', args: { query: promptArg('project') } })(AddPrivateTask.prototype, 'pages');
Bind('pages')(AddPrivateTask.prototype, 'pages');
Step({ tool: 'add_task', args: { project: askUser('Which page?', { choices: field('pages', 'names') }), task: promptArg('task') } })(
  AddPrivateTask.prototype,
  'added',
);
Workflow({
  name: 'add_private_task',
  description: 'Add a task, signed in with an API key',
  arguments: { project: z.string(), task: z.string(), api_key: z.string() },
  sensitiveArguments: ['api_key'],
})(AddPrivateTask);

class RecordRun {}
Step({ tool: 'record_run', args: { label: promptArg('label') } })(RecordRun.prototype, 'before');
Step({ tool: 'record_run', args: { label: askUser('Go on with {label}?') } })(RecordRun.prototype, 'after');
Workflow({ name: 'record_run', description: 'Record the run id before and after a question', arguments: { label: z.string() } })(RecordRun);

const pages = ['Website Redesign', 'MCP Tester', 'MCP Tester (archive)'];
const counts = { authorize: 0, list_pages: 0, add_task: 0, audit: 0 };
const runs = [];
const pause = { keys: JSON.parse(process.env.MCPFLOW_TEST_KEYS), ttlSeconds: Number(process.env.MCPFLOW_TEST_TTL ?? 600) };

async function sharedGuard() {
  const url = process.env.MCPFLOW_TEST_REDIS;
  if (!url) return;
  let client;
  if (process.env.MCPFLOW_TEST_REDIS_CLIENT === 'ioredis') {
    const { Redis } = require('ioredis');
    client = new Redis(url);
  } else {
    client = await require('redis').createClient({ url }).connect();
  }
  pause.replayGuard = redisReplayGuard(client);
}

function build() {
  const server = new WorkflowServer({ name: 'projects', version: '1.0.0' }, { pause });
  server.registerTool('authorize', { inputSchema: z.object({ api_key: z.string() }) }, async ({ api_key }) => {
    counts.authorize += 1;
    // Echoes the secret, as real sign-in tools do: it ends up in a binding of the paused run.
    return { content: [{ type: 'text', text: JSON.stringify({ session: `session-of-${api_key}` }) }] };
  });
  server.registerTool('list_pages', { inputSchema: z.object({ query: z.string().optional() }) }, async ({ query }) => {
    counts.list_pages += 1;
    const names = pages.filter((page) => !query || page.toLowerCase().includes(query.toLowerCase()));
    return { content: [{ type: 'text', text: JSON.stringify({ names }) }], structuredContent: { names } };
  });
  server.registerTool('add_task', { inputSchema: z.object({ project: z.string(), task: z.string() }) }, async ({ project }) => {
    counts.add_task += 1;
    return { content: [{ type: 'text', text: JSON.stringify({ ok: true, page: project }) }] };
  });
  server.registerTool('audit', { inputSchema: z.object({ task: z.string() }) }, async ({ task }) => {
    counts.audit += 1;
    return { content: [{ type: 'text', text: `audited ${task}` }] };
  });
  server.registerTool('record_run', { inputSchema: z.object({ label: z.string() }) }, async ({ label }, ctx) => {
    runs.push(ctx.mcpReq._meta?.[RUN_META_KEY]?.id);
    return { content: [{ type: 'text', text: `recorded ${label}` }] };
  });
  return server.use(AddProjectTask, AddPrivateTask, RecordRun);
}

const handler = createMcpHandler(build, { legacy: 'reject' });
const serve = toNodeHandler(handler);
const http = createServer((request, response) => {
  if (request.url === '/counts' || request.url === '/runs') {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.url === '/runs' ? runs : counts));
    return;
  }
  void serve(request, response);
});
void sharedGuard().then(() => http.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: http.address().port }))));
process.on('SIGTERM', () => {
  void handler.close();
  http.close(() => process.exit(0));
});
