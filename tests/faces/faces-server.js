// The faces tests' server in a process of its own, over stdio: two workflows served as prompts and
// tools, and on SDK 2.x as skills too. Plain JavaScript on the built packages, so a test (or
// inspector-cli) launches it with node; a test may also require it for `build`, a server of SDK
// 2.x. Flags: --sdk 1|2. Environment: MCPFLOW_TEST_ORDER=reverse uses the classes in the other
// order (the skills a client reads must not depend on it).
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, Workflow, promptArg, field } = require('@mcpflow/decorators');

const sdk = require.main === module && process.argv[process.argv.indexOf('--sdk') + 1] === '1' ? 1 : 2;
const { WorkflowServer, serveStdio } = require(sdk === 1 ? '@mcpflow/core/v1' : '@mcpflow/core/v2');

class GetHint {}
Step({ tool: 'lookup_player', args: { player: promptArg('player') }, guidance: "I'll look up {player}'s progress." })(
  GetHint.prototype,
  'progress',
);
Bind('progress')(GetHint.prototype, 'progress');
Step({ tool: 'hint_for', args: { room: field('progress', 'room') } })(GetHint.prototype, 'hint');
Bind('hint')(GetHint.prototype, 'hint');
Workflow({
  name: 'get_hint',
  title: 'Get a hint',
  description: 'Get a contextual hint for a player — “quotes”, émoji 🎲 and all',
  arguments: { player: z.string().describe("The player's name") },
  instructions: ['Never reveal the ending.'],
  expose: { tool: true, ...(sdk === 2 ? { skill: true } : {}) },
})(GetHint);

class TopScores {}
Step({ tool: 'lookup_player', args: { player: promptArg('player') }, parallel: true })(TopScores.prototype, 'first');
Bind('first')(TopScores.prototype, 'first');
Step({ tool: 'lookup_player', args: { player: promptArg('rival') }, parallel: true })(TopScores.prototype, 'second');
Bind('second')(TopScores.prototype, 'second');
Workflow({
  name: 'top_scores',
  description: "Compare two players' scores",
  arguments: { player: z.string(), rival: z.string().optional() },
  expose: { prompt: false, tool: { name: 'compare_scores' }, ...(sdk === 2 ? { skill: { name: 'Score Board' } } : {}) },
})(TopScores);

const classes = process.env.MCPFLOW_TEST_ORDER === 'reverse' ? [TopScores, GetHint] : [GetHint, TopScores];

function build() {
  const server = new WorkflowServer({ name: 'faces', version: '1.0.0' });
  server.registerTool('lookup_player', { inputSchema: z.object({ player: z.string() }) }, async ({ player }) => {
    const progress = { room: player === 'ada' ? 'West of House' : 'Cellar', score: player.length };
    return { content: [{ type: 'text', text: JSON.stringify(progress) }], structuredContent: progress };
  });
  server.registerTool('hint_for', { inputSchema: z.object({ room: z.string() }) }, async ({ room }) => ({
    content: [{ type: 'text', text: `Try the mailbox in ${room}` }],
  }));
  for (const target of classes) server.use(target);
  return server;
}

if (require.main === module) void serveStdio(build);
module.exports = { build };
