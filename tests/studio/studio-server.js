// The studio tests' server in a process of its own (stdio, or HTTP with --http): workflows that ask,
// fail, hand off, and run steps in parallel and per item, served as prompts and tools. Plain
// JavaScript on the built packages (npm run build first). Flags: --sdk 1|2, --http (on PORT, default a
// free one; prints `listening on <url>` on stderr), MCPFLOW_STUDIO_TEST_EXIT=1 exits at once with a message on stderr,
// MCPFLOW_STUDIO_TEST_PIDS=<file> appends the process id to the file (a test restarts the server).
require('reflect-metadata');
const { z } = require('zod');
const { Bind, Step, Workflow, askUser, field, item, promptArg } = require('@mcpflow/decorators');

if (process.env.MCPFLOW_STUDIO_TEST_EXIT === '1') {
  console.error('studio-server: cannot open database.sqlite');
  process.exit(3);
}

if (process.env.MCPFLOW_STUDIO_TEST_PIDS) require('node:fs').appendFileSync(process.env.MCPFLOW_STUDIO_TEST_PIDS, `${process.pid}\n`);

const sdk = process.argv[process.argv.indexOf('--sdk') + 1] === '1' ? 1 : 2;
const { WorkflowServer, serveStdio, serveHttp } = require(sdk === 1 ? '@mcpflow/core/v1' : '@mcpflow/core/v2');

class BookTable {}
Step({
  tool: 'book',
  args: { guests: askUser('How many guests?', { schema: z.number().int().describe('Guests') }), name: promptArg('name') },
})(BookTable.prototype, 'booking');
Workflow({
  name: 'book_table',
  description: 'Book a table, asking how many guests',
  arguments: { name: z.string() },
  expose: { tool: true },
})(BookTable);

class Broken {}
Step({ tool: 'explode', args: {} })(Broken.prototype, 'explode');
Workflow({ name: 'broken_report', description: 'Fails at its first step', expose: { tool: true } })(Broken);

class PartialRecord {}
Step({ tool: 'fetch_record', args: { id: promptArg('id') } })(PartialRecord.prototype, 'record');
Bind('record')(PartialRecord.prototype, 'record');
Step({ tool: 'enrich', args: { tag: field('record', 'tags.0.name') } })(PartialRecord.prototype, 'enrich');
Workflow({ name: 'partial', description: 'Hands off when the record has no tag', arguments: { id: z.string() } })(PartialRecord);

class FanOut {}
Step({ tool: 'list_items', args: {} })(FanOut.prototype, 'items');
Bind('items')(FanOut.prototype, 'items');
Step({ tool: 'check', args: { value: field('items', 'names.0') }, parallel: true })(FanOut.prototype, 'first');
Step({ tool: 'check', args: { value: field('items', 'names.1') }, parallel: true })(FanOut.prototype, 'second');
Step({ tool: 'check', forEach: field('items', 'names'), args: { value: item() } })(FanOut.prototype, 'each');
Workflow({ name: 'fan_out', description: 'Parallel steps and a step per item' })(FanOut);

class SlowExport {}
Step({ tool: 'wait_for_rows', args: { rows: promptArg('rows') } })(SlowExport.prototype, 'exported');
Workflow({
  name: 'slow_export',
  description: 'An export that runs as a task (SDK 2.x) until it is cancelled',
  arguments: { rows: z.string() },
  expose: { prompt: false, tool: sdk === 2 ? { task: 'optional' } : true },
})(SlowExport);

function build() {
  const server = new WorkflowServer({ name: 'studio-test', version: '1.0.0' });
  const text = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
  server.registerTool('book', { inputSchema: z.object({ guests: z.number(), name: z.string() }) }, async ({ guests, name }) =>
    text({ table: `${name} x${guests}` }),
  );
  server.registerTool('explode', { inputSchema: z.object({}) }, async () => ({
    content: [{ type: 'text', text: 'the report service is down' }],
    isError: true,
  }));
  server.registerTool('fetch_record', { inputSchema: z.object({ id: z.string() }) }, async ({ id }) => text({ id, tags: [] }));
  server.registerTool('enrich', { inputSchema: z.object({ tag: z.string() }) }, async ({ tag }) => text({ tag }));
  server.registerTool('list_items', { inputSchema: z.object({}) }, async () => text({ names: ['a', 'b', 'c'] }));
  server.registerTool('check', { inputSchema: z.object({ value: z.string() }) }, async ({ value }) => text({ value }));
  server.registerTool('wait_for_rows', { inputSchema: z.object({ rows: z.string() }) }, (_, context) => {
    const signal = sdk === 2 ? context.mcpReq.signal : context.signal;
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ content: [{ type: 'text', text: 'stopped' }] })));
  });
  return server.use(BookTable).use(Broken).use(PartialRecord).use(FanOut).use(SlowExport);
}

if (process.argv.includes('--http'))
  void serveHttp(build, { port: Number(process.env.PORT ?? 0) }).then((serving) => console.error(`listening on ${serving.url}`));
else void serveStdio(build);
