// The rerun tests' server in a process of its own (stdio): a workflow `release` — fetch, build,
// publish — served as a prompt and a tool. Each tool call appends the tool's name to the file
// MCPFLOW_RERUN_CALLS names (the tests count them), and each output counts its tool's calls so far
// (`app@1`, `build 2`), so a step that did not run again shows its recorded output. Plain JavaScript
// on the built packages. Flags: --sdk 1|2; --no-dev serves with `dev: false` (over MCPFLOW_DEV=1).
require('reflect-metadata');
const { appendFileSync } = require('node:fs');
const { z } = require('zod');
const { Bind, Step, Workflow, field, promptArg } = require('@mcpflow/decorators');

const sdk = process.argv[process.argv.indexOf('--sdk') + 1] === '1' ? 1 : 2;
const { WorkflowServer, serveStdio } = require(sdk === 1 ? '@mcpflow/core/v1' : '@mcpflow/core/v2');

class Release {}
Step({ tool: 'fetch', args: { repo: promptArg('repo') } })(Release.prototype, 'fetch');
Bind('source')(Release.prototype, 'fetch');
Step({ tool: 'build', args: { commit: field('source', 'commit') } })(Release.prototype, 'build');
Bind('artifact')(Release.prototype, 'build');
Step({ tool: 'publish', args: { file: field('artifact', 'file') } })(Release.prototype, 'publish');
Workflow({
  name: 'release',
  description: 'Fetch, build and publish a repository',
  arguments: { repo: z.string() },
  expose: { tool: true },
})(Release);

const counts = { fetch: 0, build: 0, publish: 0 };
function called(tool) {
  counts[tool] += 1;
  if (process.env.MCPFLOW_RERUN_CALLS) appendFileSync(process.env.MCPFLOW_RERUN_CALLS, `${tool}\n`);
  return counts[tool];
}

function build() {
  const server = new WorkflowServer({ name: 'rerun-test', version: '1.0.0' }, process.argv.includes('--no-dev') ? { dev: false } : {});
  const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
  server.registerTool('fetch', { inputSchema: z.object({ repo: z.string() }) }, async ({ repo }) =>
    text({ commit: `${repo}@${called('fetch')}` }),
  );
  server.registerTool('build', { inputSchema: z.object({ commit: z.string() }) }, async ({ commit }) =>
    text({ file: `${commit}.tgz`, build: called('build') }),
  );
  server.registerTool('publish', { inputSchema: z.object({ file: z.string() }) }, async ({ file }) =>
    text({ url: `https://example.test/${file}`, publish: called('publish') }),
  );
  return server.use(Release);
}

void serveStdio(build);
