// The browser tests' server: workflows that show each part of the studio page — a question, a
// parallel group and a forEach (deploy_service), a failed step (charge_card), a handoff
// (summarize_notes: it asks the client's model, which the studio does not offer), a sensitive
// argument and a step skipped by its `when` (rotate_key), two questions one after the other (plan_trip). Plain JavaScript
// on the built packages, so `mcpflow dev --command` launches it with node.
//   node studio-fixture-server.js --sdk 1|2            over stdio
//   PORT=0 node studio-fixture-server.js --sdk 1|2     over HTTP; prints `listening on <url>` on stderr
// MCPFLOW_STUDIO_FIXTURE_PIDS=<file> appends the process id to <file> (a test kills the server to restart it).
require('reflect-metadata');
if (process.env.MCPFLOW_STUDIO_FIXTURE_PIDS) require('node:fs').appendFileSync(process.env.MCPFLOW_STUDIO_FIXTURE_PIDS, `${process.pid}\n`);
const { z } = require('zod');
const { Bind, Step, Workflow, askModel, askUser, constant, field, item, present, promptArg } = require('@mcpflow/decorators');

const sdk = process.argv[process.argv.indexOf('--sdk') + 1] === '1' ? 1 : 2;
const { WorkflowServer, serveHttp, serveStdio } = require(sdk === 1 ? '@mcpflow/core/v1' : '@mcpflow/core/v2');

class DeployService {}
const step = (target, name, options) => {
  Step(options)(target.prototype, name);
  Bind(name)(target.prototype, name);
};
step(DeployService, 'build', { tool: 'build', args: { service: promptArg('service') } });
step(DeployService, 'unit_tests', { tool: 'check', args: { artifact: field('build', 'artifact') }, parallel: true });
step(DeployService, 'lint', { tool: 'check', args: { artifact: field('build', 'artifact') }, parallel: true });
step(DeployService, 'ship', { tool: 'ship', forEach: constant(['eu', 'us', 'ap']), args: { region: item() } });
step(DeployService, 'scale', {
  tool: 'scale',
  args: { service: promptArg('service'), replicas: askUser('How many replicas of {service}?', { schema: z.number(), title: 'Replicas' }) },
});
Workflow({
  name: 'deploy_service',
  description: 'Build a service, check it, ship it to each region and scale it',
  arguments: { service: z.string().describe('The service to deploy') },
  expose: { tool: true },
})(DeployService);

class ChargeCard {}
step(ChargeCard, 'charge', { tool: 'charge', args: { amount: promptArg('amount') } });
Workflow({ name: 'charge_card', description: 'Charge a card (the bank always declines)', arguments: { amount: z.string() } })(ChargeCard);

class SummarizeNotes {}
step(SummarizeNotes, 'summary', { tool: 'save', args: { text: askModel('Summarize {notes}') } });
Workflow({ name: 'summarize_notes', description: "Summarize notes with the client's model", arguments: { notes: z.string() } })(
  SummarizeNotes,
);

class RotateKey {}
step(RotateKey, 'login', { tool: 'login', args: { key: promptArg('api_key'), user: promptArg('user') } });
step(RotateKey, 'announce', { tool: 'announce', when: present(promptArg('channel')), args: { channel: promptArg('channel') } });
step(RotateKey, 'rotate', { tool: 'rotate', args: { session: field('login', 'session') } });
Workflow({
  name: 'rotate_key',
  description: 'Log in with an API key, announce the rotation where asked, and rotate the key',
  arguments: { api_key: z.string(), user: z.string(), channel: z.string().optional() },
  sensitiveArguments: ['api_key'],
})(RotateKey);

// Two questions, one a step: the run waits on the user twice (the raw-messages test follows it live).
class PlanTrip {}
step(PlanTrip, 'pick', { tool: 'save', args: { text: askUser('Where to?', { schema: z.string(), title: 'Destination' }) } });
step(PlanTrip, 'book', { tool: 'save', args: { text: askUser('For how many nights?', { schema: z.string(), title: 'Nights' }) } });
Workflow({ name: 'plan_trip', description: 'Pick a destination, then book the nights', arguments: {} })(PlanTrip);

function text(value) {
  return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value };
}

function build() {
  const server = new WorkflowServer({ name: 'studio-fixture', version: '1.0.0' });
  server.registerTool('build', { inputSchema: z.object({ service: z.string() }) }, async ({ service }) =>
    text({ artifact: `${service}.tgz` }),
  );
  server.registerTool('check', { inputSchema: z.object({ artifact: z.string() }) }, async ({ artifact }) => text({ ok: true, artifact }));
  server.registerTool('ship', { inputSchema: z.object({ region: z.string() }) }, async ({ region }) => text({ shipped: region }));
  server.registerTool('scale', { inputSchema: z.object({ service: z.string(), replicas: z.number() }) }, async (args) => text(args));
  server.registerTool('charge', { inputSchema: z.object({ amount: z.string() }) }, async () => ({
    content: [{ type: 'text', text: 'card declined by the bank' }],
    isError: true,
  }));
  server.registerTool('save', { inputSchema: z.object({ text: z.string() }) }, async ({ text: saved }) => text({ saved }));
  // For the Inspector: a plain tool with a number, a boolean and an enum argument, and a resource.
  server.registerTool(
    'resize',
    {
      description: 'Resizes an image',
      inputSchema: z.object({ width: z.number(), keepRatio: z.boolean(), format: z.enum(['png', 'jpeg']), note: z.string().optional() }),
    },
    async ({ width, keepRatio, format }) => text({ resized: `${width}px ${format}${keepRatio ? ' keeping its ratio' : ''}`, width }),
  );
  server.registerResource('readme', 'notes://readme', { description: 'What the fixture serves', mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'The studio fixture: three workflows and their tools.' }],
  }));
  // A plain prompt (not a workflow's), for the Inspector: one required argument and an optional one.
  server.registerPrompt(
    'review_code',
    {
      description: 'Asks for a review of a file',
      argsSchema: { file: z.string().describe('The file to review'), focus: z.string().optional() },
    },
    ({ file, focus }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Please review ${file}${focus ? `, looking at ${focus}` : ''}.` } }],
    }),
  );
  // login echoes the key it was given: the server redacts it wherever it shows.
  server.registerTool('login', { inputSchema: z.object({ key: z.string(), user: z.string() }) }, async ({ key, user }) =>
    text({ session: `session-of-${user}`, key }),
  );
  server.registerTool('announce', { inputSchema: z.object({ channel: z.string() }) }, async ({ channel }) => text({ announced: channel }));
  server.registerTool('rotate', { inputSchema: z.object({ session: z.string() }) }, async ({ session }) =>
    text({ rotated: true, session }),
  );
  return server.use(DeployService, ChargeCard, SummarizeNotes, RotateKey, PlanTrip);
}

if (process.env.PORT === undefined) void serveStdio(build);
else void serveHttp(build, { port: Number(process.env.PORT) }).then((serving) => console.error(`listening on ${serving.url}`));
