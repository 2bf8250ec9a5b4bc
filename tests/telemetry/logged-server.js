// A stdio server for the debug-log tests: a workflow with a sensitive key, a player's name in a
// URI, a question, a failing optional step that echoes the key, and a loop. Plain JavaScript on
// the built packages, so the test spawns it with node, as an MCP client launches a server.
//   node logged-server.js --sdk <1|2> [--logger function|object]
// Without --logger it logs only as the DEBUG environment variable says; with it, through the
// `logger` option, each line marked `[app]` on stderr.
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, TemplateBinding, Workflow, askUser, field, item, promptArg } = require('@mcpflow/decorators');

const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const { WorkflowServer, serveStdio } = require(`@mcpflow/core/v${option('--sdk')}`);
const { ResourceTemplate } = require(option('--sdk') === '1' ? '@modelcontextprotocol/sdk/server/mcp.js' : '@modelcontextprotocol/server');

class Vault {}
Step({ tool: 'login', args: { api_key: promptArg('api_key') } })(Vault.prototype, 'session');
Bind('session')(Vault.prototype, 'session');
Step({ tool: 'audit', args: { api_key: promptArg('api_key') }, optional: true })(Vault.prototype, 'audit');
Step({ resource: 'vault://players/{player}' })(Vault.prototype, 'profile');
TemplateBinding('player', promptArg('player'))(Vault.prototype, 'profile');
Bind('profile')(Vault.prototype, 'profile');
Step({ tool: 'inspect', args: { room: item() }, forEach: field('session', 'rooms') })(Vault.prototype, 'rooms');
Bind('rooms')(Vault.prototype, 'rooms');
Step({ tool: 'open_drawer', args: { drawer: askUser('Which drawer should {player} open?') } })(Vault.prototype, 'drawer');
Workflow({
  name: 'vault',
  description: 'Open a drawer of the vault',
  arguments: { api_key: z.string(), player: z.string() },
  sensitiveArguments: ['api_key'],
})(Vault);

const loggers = {
  function: (line) => process.stderr.write(`[app] ${line}\n`),
  object: { debug: (line) => process.stderr.write(`[app] ${line}\n`) },
};
const schema = (shape) => (option('--sdk') === '1' ? shape : z.object(shape));
const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

function build() {
  const server = new WorkflowServer({ name: 'vault', version: '1.0.0' }, { logger: loggers[option('--logger')] });
  server.registerTool('login', { inputSchema: schema({ api_key: z.string() }) }, async ({ api_key }) =>
    text({ session: `session-of-${api_key}`, rooms: ['hall', 'cellar', 'attic'] }),
  );
  server.registerTool('audit', { inputSchema: schema({ api_key: z.string() }) }, async ({ api_key }) => {
    throw new Error(`audit refused key ${api_key}`);
  });
  server.registerTool('inspect', { inputSchema: schema({ room: z.string() }) }, async ({ room }) => text({ room, ok: true }));
  server.registerTool('open_drawer', { inputSchema: schema({ drawer: z.string() }) }, async ({ drawer }) => text({ opened: drawer }));
  server.registerResource(
    'players',
    new ResourceTemplate('vault://players/{player}', { list: undefined }),
    {},
    async (uri, { player }) => ({
      contents: [{ uri: uri.href, text: `profile of ${player}` }],
    }),
  );
  return server.use(Vault);
}

void serveStdio(build);
